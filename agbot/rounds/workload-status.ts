/**
 * What runs, from the nodes' own reports (docs/agbot.md "Status"): for each node whose status
 * report changed (a `nodestatus` row in the feed) and that holds a live agreement of this agbot
 * (finalized or not yet: a node may report its workload before the agbot has its confirmation),
 * one read of the report; each of its agreements keeps its workload's state (running,
 * failing) in its details, written only when the state changed, a hundred agreements a write
 * (pending-updates.ts). The status counts `running` and `failing` from these
 * (lib/agbot-store/policy-status.ts). No change row, no request.
 */
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { reportedServices, workloadState } from '#lib/protocol/workload-report';
import type { RoundContext } from './context.ts';
import type { FeedSummary } from './feed.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { PendingUpdates } from './pending-updates.ts';

export async function recordWorkloads(
  ctx: RoundContext,
  live: LiveAgreements,
  feed: Pick<FeedSummary, 'statuses'>,
): Promise<void> {
  if (feed.statuses.size === 0) return;
  const byNode = new Map<string, AgbotAgreement[]>();
  for (const agreement of live.list()) {
    const node = `${agreement.nodeOrg}/${agreement.nodeId}`;
    if (!feed.statuses.has(node)) continue;
    byNode.set(node, [...(byNode.get(node) ?? []), agreement]);
  }
  const states = new PendingUpdates(ctx.store, (updated) => live.updated(updated));
  await states.around(() => readReports(ctx, byNode, states));
}

/** One read of each node's report; the states of its agreements that changed are kept in `states`. */
async function readReports(
  ctx: RoundContext,
  byNode: Map<string, AgbotAgreement[]>,
  states: PendingUpdates,
): Promise<void> {
  for (const agreements of byNode.values()) {
    const [first] = agreements as [AgbotAgreement];
    let services: ReturnType<typeof reportedServices>;
    try {
      services = reportedServices(await ctx.exchange.nodeStatus(first.nodeOrg, first.nodeId));
    } catch (error) {
      // A count is not worth failing the round: the next report of the node brings it.
      ctx.log.warn('node status not read', {
        node: `${first.nodeOrg}/${first.nodeId}`,
        error: String(error),
      });
      continue;
    }
    for (const agreement of agreements) {
      const updated = withState(ctx, agreement, workloadState(services, agreement.agreementId));
      if (updated) await states.add(updated);
    }
  }
}

/** The agreement with its workload's new state, or undefined when the state did not change. */
function withState(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  state: ReturnType<typeof workloadState>,
): AgbotAgreement | undefined {
  if (state === agreement.details?.workload?.state) return undefined;
  const { workload: _, ...rest } = agreement.details ?? { protocolTimeoutS: 0, secrets: [] };
  const details = state ? { ...rest, workload: { state, at: ctx.now() } } : rest;
  return { ...agreement, details };
}
