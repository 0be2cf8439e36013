import type { FormattedItem } from 'dynamodb-toolbox';
import { type OrgEntity, orgRepository } from './orgs.ts';

export type OrgRecord = FormattedItem<typeof OrgEntity>;

export async function getOrg(org: string): Promise<OrgRecord | undefined> {
  const { Item } = await orgRepository.get({ org });
  return Item;
}

export const ORG_ATTRIBUTES = [
  'orgType',
  'label',
  'description',
  'lastUpdated',
  'tags',
  'limits',
  'heartbeatIntervals',
] as const;

/** The org as upstream returns it (keyed by org id in the response map). */
export function orgView(org: OrgRecord) {
  return {
    orgType: org.orgType,
    label: org.label,
    description: org.description,
    lastUpdated: org.lastUpdated,
    tags: org.tags ?? null,
    limits: org.limits,
    heartbeatIntervals: org.heartbeatIntervals,
  };
}
