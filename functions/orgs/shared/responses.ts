import * as z from 'zod';

/** Response bodies of the org endpoints (docs/exchange.md#record-shapes, #organizations). */
const int = z.number().int();

export const heartbeatIntervals = z.object({
  minInterval: int,
  maxInterval: int,
  intervalAdjustment: int,
});

export const org = z.object({
  orgType: z.string(),
  label: z.string(),
  description: z.string(),
  lastUpdated: z.string(),
  tags: z.record(z.string(), z.string()).nullable(),
  limits: z.object({ maxNodes: int }),
  heartbeatIntervals,
});

/** Keyed by org id; lastIndex is always 0. */
export const getOrgsResponse = z.object({ orgs: z.record(z.string(), org), lastIndex: int });
