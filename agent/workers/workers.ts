import { nextHeartbeatInterval, resolveHeartbeatIntervals } from '#lib/protocol/heartbeat-intervals';
import { type AgentContext, NO_SIGNALS } from '../runtime/context.ts';
import type { PushKind } from '../runtime/sync-kinds.ts';
import { type Loop, startLoop } from '../runtime/worker-loop.ts';
import { DOCUMENTS } from '../sync/documents.ts';
import { pollExchange } from '../sync/poll.ts';
import { agentSignals } from '../sync/signals.ts';
import { runUpgradeJob } from '../upgrade/job.ts';
import { startUpgradeWorker, UPGRADE_WORKER } from '../upgrade/worker.ts';

/** Worker names shown by GET /status/workers. */
export const WORKERS = {
  changes: 'ExchangeChanges',
  upgrade: UPGRADE_WORKER,
  ...(Object.fromEntries(Object.entries(DOCUMENTS).map(([kind, doc]) => [kind, doc.worker])) as Record<
    PushKind,
    string
  >),
};

/** What the poll's pace reads of the agent. */
export type PaceContext = Pick<AgentContext, 'config' | 'runtime' | 'protocol' | 'signals'>;

export interface Workers {
  stop(): Promise<void>;
}

/**
 * The Exchange poll's pace: fixed (`pollIntervalMs`, HZN_AGENT_POLL_SECONDS) or upstream's
 * adaptive intervals (the node's, else its org's, else the agent's settings): one step longer
 * after each idle round, the minimum after activity for the node or while an agreement is
 * negotiated. While the signal channel is open, a node polls only every `signalledPollMs` unless
 * its last poll saw activity: the Exchange tells it when to look, the agbot's answer to a
 * negotiation included (at 10,000 nodes negotiating, upstream's 10 s would be 1,000 polls a second).
 */
export function pollPace(ctx: PaceContext) {
  let currentS = 0;
  let active = true;
  return {
    saw(activity: boolean) {
      active = activity;
    },
    nextDelayMs(): number {
      const settings = ctx.config.heartbeat;
      if (!settings) return ctx.config.pollIntervalMs;
      const { node, org } = ctx.runtime.remoteIntervals;
      const intervals = resolveHeartbeatIntervals(node, org, settings);
      const busy = active || ctx.protocol?.negotiating() === true;
      currentS = nextHeartbeatInterval(currentS, busy, intervals);
      if (!active && ctx.signals.connected()) return Math.max(currentS * 1000, ctx.config.signalledPollMs);
      return currentS * 1000;
    },
  };
}

/**
 * Starts the workers: ExchangeChanges (one POST /changes, then the synced documents it names read
 * back from the Exchange) and one sync worker per synced document that pushes writes the Exchange has not
 * taken yet. Sync workers also wake up at once when a write is left pending.
 */
export function startWorkers(ctx: AgentContext): Workers {
  for (const name of Object.values(WORKERS)) ctx.workers.set(name, 'added');
  const common = {
    registry: ctx.workers,
    log: ctx.log,
    retryMinMs: ctx.config.retryMinMs,
    retryMaxMs: ctx.config.retryMaxMs,
  };
  const pace = pollPace(ctx);
  const changes = startLoop({
    ...common,
    name: WORKERS.changes,
    intervalMs: ctx.config.pollIntervalMs,
    nextDelayMs: pace.nextDelayMs,
    tick: async () => pace.saw(await pollExchange(ctx)),
  });
  ctx.pollNow = () => changes.wake();
  const signals = agentSignals(ctx);
  ctx.signals = signals;
  const pushers = new Map<PushKind, Loop>();
  for (const doc of Object.values(DOCUMENTS))
    pushers.set(
      doc.kind,
      startLoop({
        ...common,
        name: doc.worker,
        intervalMs: ctx.config.pollIntervalMs,
        tick: () => doc.pushPending(ctx),
      }),
    );
  ctx.wake = (kind) => pushers.get(kind)?.wake();
  const upgrades = startUpgradeWorker(ctx, common, runUpgradeJob);
  return {
    async stop() {
      ctx.wake = () => {};
      ctx.pollNow = () => {};
      signals.stop();
      ctx.signals = NO_SIGNALS;
      await Promise.all([
        changes.stop(),
        upgrades.stop(),
        ...[...pushers.values()].map((loop) => loop.stop()),
      ]);
    },
  };
}
