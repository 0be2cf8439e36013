import * as z from 'zod';
import { badInput } from '#lib/http/errors';
import type { Intervals, OrgFields } from '#tables/org-records';

/** Upstream defaults a missing number to 0; negative counts and intervals mean nothing, so 400. */
const count = z.number().int().min(0);
const intervals = z.strictObject({
  minInterval: count.default(0),
  maxInterval: count.default(0),
  intervalAdjustment: count.default(0),
});
const limits = z.strictObject({ maxNodes: count.default(0) });
const NO_INTERVALS: Intervals = { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 };

/** POST and PUT: label and description required; the rest optional (null = absent). */
export const orgBody = z.strictObject({
  orgType: z.string().nullish(),
  label: z.string(),
  description: z.string(),
  tags: z.record(z.string(), z.string()).nullish(),
  limits: limits.nullish(),
  heartbeatIntervals: intervals.nullish(),
});

/** PATCH: any subset; the first present in upstream's order is applied. A null tag value drops it. */
export const orgPatchBody = z.strictObject({
  orgType: z.string().nullish(),
  label: z.string().nullish(),
  description: z.string().nullish(),
  tags: z.record(z.string(), z.string().nullable()).nullish(),
  limits: limits.nullish(),
  heartbeatIntervals: intervals.nullish(),
});

/** The org as stored from a POST/PUT body: omitted optional fields reset to their empty values. */
export const orgFields = (body: z.infer<typeof orgBody>): OrgFields => ({
  orgType: body.orgType ?? '',
  label: body.label,
  description: body.description,
  tags: body.tags ?? undefined,
  limits: body.limits ?? { maxNodes: 0 },
  heartbeatIntervals: body.heartbeatIntervals ?? NO_INTERVALS,
});

/** An org's `maxNodes` may not exceed the Exchange's (0 there = unlimited, so anything goes). */
export function checkOrgLimits(
  orgLimits: { maxNodes: number } | null | undefined,
  exchangeMaxNodes: number,
): void {
  const orgMax = orgLimits?.maxNodes ?? 0;
  if (exchangeMaxNodes > 0 && orgMax > exchangeMaxNodes) {
    throw badInput(
      `Org specific limits cannot be over the global exchange limit. Org limit: ${orgMax}; Exchange Limit: ${exchangeMaxNodes}`,
    );
  }
}
