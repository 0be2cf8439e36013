import type { Logger } from '#lib/json-logger';
import { loadStatuses, type NmpStatuses, saveStatuses } from '../nmp/store.ts';
import { isActive, loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { type Loop, startLoop } from '../runtime/worker-loop.ts';
import type { WorkerRegistry } from '../runtime/worker-registry.ts';
import { processHost, type UpgradeHost } from './host.ts';
import { ACTIVE_STATUSES, scheduledHere } from './schedule.ts';
import { type UpgradeLimits, upgradeLimits } from './settings.ts';
import { settleUpgrade } from './settle.ts';
import { setJobStatus } from './status.ts';

export const UPGRADE_WORKER = 'AgentUpgrade';

/** One job from `waiting` on: its stages, each bounded by `limits` (abort `signal` on stop). */
export type JobRunner = (
  ctx: AgentContext,
  key: string,
  limits: UpgradeLimits,
  signal: AbortSignal,
  host: UpgradeHost,
) => Promise<void>;

const wakers = new WeakMap<AgentContext, () => void>();
/** Looks for a due job now (a status was just scheduled). */
export const wakeUpgrades = (ctx: AgentContext) => wakers.get(ctx)?.();

interface LoopCommon {
  registry: WorkerRegistry;
  log: Logger;
  retryMinMs: number;
  retryMaxMs: number;
}

/**
 * The AgentUpgrade worker: one job at a time, the due `waiting` status scheduled earliest; a job
 * whose stage outlives its deadline (here, or left by an agent that stopped) ends `failed`, so it
 * never blocks the next one. Wakes at the next scheduled time or deadline, at the latest every
 * poll interval.
 */
export function startUpgradeWorker(
  ctx: AgentContext,
  common: LoopCommon,
  runJob: JobRunner,
  host: UpgradeHost = processHost(),
): Loop {
  const limits = upgradeLimits();
  const stopping = new AbortController();
  let running: string | undefined;
  const loop = startLoop({
    ...common,
    name: UPGRADE_WORKER,
    intervalMs: ctx.config.pollIntervalMs,
    nextDelayMs: () => nextDelay(loadStatuses(ctx.store), ctx.now(), ctx.config.pollIntervalMs),
    tick: async () => {
      if (!isActive(loadNode(ctx.store))) return;
      if (await settleUpgrade(ctx, limits, host)) return; // an upgrade that restarted the agent is still open
      await expireStuck(ctx, limits, running);
      const statuses = loadStatuses(ctx.store);
      const busy = (s: NmpStatuses[string]) =>
        scheduledHere(s) && ACTIVE_STATUSES.has(s.agentUpgradePolicyStatus.status);
      if (Object.values(statuses).some(busy)) return;
      const key = dueJob(statuses, ctx.now());
      if (!key) return;
      running = key;
      try {
        // A runner that ignores its deadlines still frees the worker; its stage deadline then fails the job.
        const total = limits.downloadMs + limits.installMs + limits.restartMs;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          runJob(ctx, key, limits, stopping.signal, host),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, total);
            stopping.signal.addEventListener('abort', () => resolve(), { once: true });
          }),
        ]).finally(() => clearTimeout(timer));
      } finally {
        running = undefined;
      }
    },
  });
  wakers.set(ctx, () => loop.wake());
  return {
    wake: () => loop.wake(),
    async stop() {
      wakers.delete(ctx);
      stopping.abort(new Error('the agent is stopping'));
      await loop.stop();
    },
  };
}

/** The `waiting` status scheduled earliest whose time has come. */
export function dueJob(statuses: NmpStatuses, nowMs: number): string | undefined {
  let best: [string, number] | undefined;
  for (const [key, status] of Object.entries(statuses)) {
    if (status.agentUpgradePolicyStatus.status !== 'waiting' || !scheduledHere(status)) continue;
    const at = Date.parse(status.agentUpgradePolicyStatus.scheduledTime);
    if (Number.isNaN(at) || at > nowMs) continue;
    if (!best || at < best[1]) best = [key, at];
  }
  return best?.[0];
}

/** Until the next scheduled job or stage deadline, at most `maxMs`. */
export function nextDelay(statuses: NmpStatuses, nowMs: number, maxMs: number): number {
  let next = nowMs + maxMs;
  for (const status of Object.values(statuses)) {
    const s = status.agentUpgradePolicyStatus;
    if (!scheduledHere(status)) continue;
    const at =
      s.status === 'waiting'
        ? Date.parse(s.scheduledTime)
        : (status.agentUpgradeInternal.stageDeadline ?? NaN);
    if (!Number.isNaN(at)) next = Math.min(next, at);
  }
  return Math.max(0, next - nowMs);
}

/**
 * Active statuses past their stage deadline, other than the job this agent is running (its stages
 * carry their own), become `failed`. One without a deadline (written by hand or by an older agent)
 * gets the stage's limit from now.
 */
async function expireStuck(ctx: AgentContext, limits: UpgradeLimits, running: string | undefined) {
  const node = loadNode(ctx.store);
  if (!node) return;
  const now = ctx.now();
  const expired: [string, string][] = [];
  ctx.store.transaction(() => {
    const statuses = loadStatuses(ctx.store);
    let stamped = false;
    for (const [key, status] of Object.entries(statuses)) {
      const s = status.agentUpgradePolicyStatus.status;
      if (key === running || !ACTIVE_STATUSES.has(s) || !scheduledHere(status)) continue;
      const deadline = status.agentUpgradeInternal.stageDeadline;
      if (deadline === undefined) {
        status.agentUpgradeInternal.stageDeadline = now + stageLimit(s, limits);
        stamped = true;
      } else if (deadline <= now) expired.push([key, s]);
    }
    if (stamped) saveStatuses(ctx.store, statuses);
  });
  for (const [key, stage] of expired) {
    const message = `The agent upgrade stopped at '${stage}': the stage did not finish in time.`;
    await setJobStatus(ctx, key, { status: 'failed', errorMessage: message });
    ctx.events.node('error', 'node_management_job_timed_out', `${key}: ${message}`, nodeSource(node));
  }
}

const stageLimit = (status: string, limits: UpgradeLimits) =>
  status === 'download started'
    ? limits.downloadMs
    : status === 'downloaded'
      ? limits.installMs
      : limits.restartMs;
