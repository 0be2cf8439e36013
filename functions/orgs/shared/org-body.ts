import { badInput } from '#lib/http/errors';
import type { Intervals, OrgFields } from '#tables/org/records';
import type { OrgBody } from './schemas.ts';

const NO_INTERVALS: Intervals = { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 };

/** The org as stored from a POST/PUT body: omitted optional fields reset to their empty values. */
export const orgFields = (body: OrgBody): OrgFields => ({
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
