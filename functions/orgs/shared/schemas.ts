import * as z from 'zod';
import { filterParam } from '#lib/like';

/** Request schemas of the org endpoints (docs/exchange.md#organizations). */

/** Upstream defaults a missing number to 0; negative counts and intervals mean nothing, so 400. */
const count = z.number().int().min(0);
const intervals = z.strictObject({
  minInterval: count.default(0),
  maxInterval: count.default(0),
  intervalAdjustment: count.default(0),
});
const limits = z.strictObject({ maxNodes: count.default(0) });

/** POST and PUT: label and description required; the rest optional (null = absent). */
export const orgBody = z.strictObject({
  orgType: z.string().nullish(),
  label: z.string(),
  description: z.string(),
  tags: z.record(z.string(), z.string()).nullish(),
  limits: limits.nullish(),
  heartbeatIntervals: intervals.nullish(),
});
export type OrgBody = z.infer<typeof orgBody>;

/** PATCH: any subset; the first present in upstream's order is applied. A null tag value drops it. */
export const orgPatchBody = z.strictObject({
  orgType: z.string().nullish(),
  label: z.string().nullish(),
  description: z.string().nullish(),
  tags: z.record(z.string(), z.string().nullable()).nullish(),
  limits: limits.nullish(),
  heartbeatIntervals: intervals.nullish(),
});

/** GET /v1/orgs: filters (`%` = LIKE wildcard). */
export const getOrgsQuery = z.object({
  label: filterParam.optional(),
  organization: filterParam.optional(),
  description: filterParam.optional(),
  orgtype: filterParam.optional(),
});

/** GET /v1/orgs/{organization}: one attribute instead of the whole org. */
export const getOrgQuery = z.object({ attribute: z.string().optional() });
