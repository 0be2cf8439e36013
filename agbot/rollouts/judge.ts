/**
 * A node's verdict, from what the agbot already has and its node status (docs/rollouts.md#per-node-states):
 * the live agreement under the policy, the node's ended agreements (their reason codes), its status
 * report (`GET …/nodes/{id}/status`) and heartbeat. Answers the row's next state, or undefined
 * when it stays; acts (`move`) only to finish what an earlier round decided and a crash cut short.
 */
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { IN_FLIGHT, type RolloutNode, type RolloutRecord } from '#lib/rollout/states';
import { classifyReason, FAILURE, failureLabel } from '#lib/rollout/verdict';
import type { RoundContext } from '../rounds/context.ts';
import { readHeartbeat, readNodeServices, runningIn } from './exchange.ts';
import type { PolicyRollout } from './hooks.ts';

const FINALIZED = 'Finalized Agreement';

export async function judgeNode(
  ctx: RoundContext,
  view: PolicyRollout,
  record: RolloutRecord,
  row: RolloutNode,
  agreement: AgbotAgreement | undefined,
  move: (agreement: AgbotAgreement) => Promise<void>,
): Promise<RolloutNode | undefined> {
  const now = ctx.now();
  const { verify } = view.plan;
  const target = record.target;
  const to = (state: RolloutNode['state'], extra: Partial<RolloutNode> = {}): RolloutNode => ({
    ...row,
    state,
    since: now,
    ...extra,
  });
  const onTarget = agreement?.service.version === target;
  const live = record.phase === 'running' || record.phase === 'paused';

  if (row.state === 'reverting') {
    if (agreement && onTarget) await move(agreement);
    else if (agreement?.state === FINALIZED) {
      const services = await readNodeServices(ctx.exchange, row.node);
      if (runningIn(services, agreement.agreementId, agreement.service.version).running)
        return to('rolledBack');
    }
    return undefined;
  }
  if (!live) return undefined;
  // Back with the target agreed: verified again, its deadline counted from now, once a slot of
  // maxInFlight is free (until then it stays offline: nodes coming back never exceed the cap).
  if (row.state === 'offline' && agreement && onTarget && agreement.state === FINALIZED) {
    const inFlight = [...view.nodes.values()].filter((n) => IN_FLIGHT.has(n.state)).length;
    return inFlight < view.plan.maxInFlight ? to('deploying', { admittedAt: now }) : undefined;
  }
  if (row.state !== 'deploying' && row.state !== 'verifying') return undefined;
  const admittedAt = row.admittedAt ?? row.since;

  if (!agreement) {
    const [org, id] = [row.node.slice(0, row.node.indexOf('/')), row.node.slice(row.node.indexOf('/') + 1)];
    const ended = (await ctx.store.endedAgreements(org, id, view.policy))
      .filter((e) => e.version === target && e.endedAt >= admittedAt)
      .at(-1);
    if (ended) {
      const kind = classifyReason(ended.reason);
      const reason = ended.reason === undefined ? 'ended' : failureLabel(ended.reason);
      if (kind === 'failure') return to('failed', { reason, verdictAt: now });
      return to(kind === 'offline' ? 'offline' : 'left', { reason });
    }
  } else if (!onTarget) {
    // The baseline agreement of an admission a crash cut short; or one offered after it: a fallback.
    if (agreement.createdAt <= admittedAt) await move(agreement);
    else return to('failed', { reason: FAILURE.fellBack, verdictAt: now });
  } else if (agreement.state === FINALIZED) {
    const verifying = row.state === 'verifying';
    if (!verifying || now - row.since >= verify.runningSeconds * 1000) {
      const seen = runningIn(await readNodeServices(ctx.exchange, row.node), agreement.agreementId, target);
      if (!verifying && seen.running) return to('verifying', { containers: seen.containers, restarts: 0 });
      if (verifying) {
        const restarts = (row.restarts ?? 0) + (seen.containers === row.containers ? 0 : 1);
        if (restarts > verify.maxRestarts)
          return to('failed', { reason: FAILURE.restarts, restarts, verdictAt: now });
        if (!seen.running) return to('deploying', { restarts, containers: seen.containers });
        const heartbeat = await readHeartbeat(ctx.exchange, row.node);
        if (heartbeat === undefined || now - heartbeat > verify.heartbeatSeconds * 1000)
          return to('offline', { reason: 'heartbeat stale at the end of the run' });
        return to('succeeded', { restarts, verdictAt: now });
      }
    }
  }
  if (now - admittedAt > verify.deadlineSeconds * 1000)
    return to('failed', { reason: FAILURE.deadline, verdictAt: now });
  return undefined;
}
