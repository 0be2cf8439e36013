/**
 * How often a node polls the Exchange (anax: the node's `heartbeatIntervals`, else its org's,
 * else the agent's settings; defaults 20 s, growing by 20 s while idle, at most 120 s). Both sides
 * use it: the agent to pace its poll, the agbot to size the protocol timeouts by the node's
 * maximum interval (timeouts.ts).
 */
export interface HeartbeatIntervals {
  /** Seconds. */
  minInterval: number;
  maxInterval: number;
  intervalAdjustment: number;
}

export const DEFAULT_HEARTBEAT_INTERVALS: HeartbeatIntervals = {
  minInterval: 20,
  maxInterval: 120,
  intervalAdjustment: 20,
};

type Partial = { minInterval?: number; maxInterval?: number; intervalAdjustment?: number } | null | undefined;

/** Set when any of its values is: anax takes the node's (or org's) triple only when it is not all 0. */
const isSet = (intervals: Partial): intervals is NonNullable<Partial> =>
  Boolean(intervals && (intervals.minInterval || intervals.maxInterval || intervals.intervalAdjustment));

/** The node's intervals, else the org's, else `settings`; a 0 in the chosen triple takes the settings' value. */
export function resolveHeartbeatIntervals(
  node: Partial,
  org: Partial,
  settings: HeartbeatIntervals = DEFAULT_HEARTBEAT_INTERVALS,
): HeartbeatIntervals {
  const chosen = isSet(node) ? node : isSet(org) ? org : undefined;
  const min = chosen?.minInterval || settings.minInterval;
  const max = Math.max(min, chosen?.maxInterval || settings.maxInterval);
  return {
    minInterval: min,
    maxInterval: max,
    intervalAdjustment: chosen?.intervalAdjustment || settings.intervalAdjustment,
  };
}

/** The next interval: back to the minimum on activity, else one step longer, never past the maximum. */
export function nextHeartbeatInterval(
  current: number,
  active: boolean,
  intervals: HeartbeatIntervals,
): number {
  if (active || current < intervals.minInterval) return intervals.minInterval;
  return Math.min(intervals.maxInterval, current + intervals.intervalAdjustment);
}
