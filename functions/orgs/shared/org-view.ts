import type * as z from 'zod';
import type { OrgRecord } from '#tables/org/records';
import type { org as orgResponse } from './responses.ts';

/** `?attribute=` names: the fields of the view. */
export const ORG_ATTRIBUTES = [
  'orgType',
  'label',
  'description',
  'lastUpdated',
  'tags',
  'limits',
  'heartbeatIntervals',
] as const;

/**
 * The org as upstream returns it (keyed by org id in the response map), field by field from the
 * record: typed by the response schema, so a stored field that is not in it fails `tsc`.
 */
export function orgView(org: OrgRecord): z.infer<typeof orgResponse> {
  return {
    orgType: org.orgType,
    label: org.label,
    description: org.description,
    lastUpdated: org.lastUpdated,
    tags: org.tags ?? null,
    limits: { maxNodes: org.limits.maxNodes },
    heartbeatIntervals: {
      minInterval: org.heartbeatIntervals.minInterval,
      maxInterval: org.heartbeatIntervals.maxInterval,
      intervalAdjustment: org.heartbeatIntervals.intervalAdjustment,
    },
  };
}
