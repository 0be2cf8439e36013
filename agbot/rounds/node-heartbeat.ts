import { resolveHeartbeatIntervals } from '#lib/protocol/heartbeat-intervals';
import type { RoundContext } from './context.ts';
import { cached, type RoundCache } from './proposal-plan.ts';
import type { NodeRecord } from './wire.ts';

type Intervals =
  | { minInterval?: number; maxInterval?: number; intervalAdjustment?: number }
  | null
  | undefined;

/**
 * The longest a node may idle between polls, as the agbot sizes its protocol timeouts and message
 * TTLs by it: the node's `heartbeatIntervals`, else its org's, else upstream's default (120 s), by
 * the rule the agent paces itself with (lib/protocol/heartbeat-intervals.ts). The org is read once
 * per round; one the agbot may not read counts as setting nothing. An agent's own
 * HZN_AGENT_HEARTBEAT_MAX_SECONDS is not visible from here (docs/agbot.md).
 */
export async function nodeMaxHeartbeatS(
  ctx: RoundContext,
  cache: RoundCache,
  nodeOrg: string,
  record: Pick<NodeRecord, 'heartbeatIntervals'>,
): Promise<number> {
  const own = record.heartbeatIntervals as Intervals;
  const org = own?.maxInterval
    ? undefined
    : await cached(cache, `org intervals ${nodeOrg}`, () =>
        ctx.exchange.orgHeartbeatIntervals(nodeOrg).catch(() => undefined),
      );
  return resolveHeartbeatIntervals(own, org as Intervals).maxInterval;
}
