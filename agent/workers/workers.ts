import type { AgentContext } from '../context.ts';
import { pushManagement } from '../nmp/sync.ts';
import { pollExchange } from '../node/changes.ts';
import type { PushKind } from '../node/local.ts';
import { pushPending } from '../node/sync.ts';
import { type Loop, startLoop } from './loop.ts';

/** Worker names shown by GET /status/workers. */
export const WORKERS = {
  changes: 'ExchangeChanges',
  userInput: 'UserInputSync',
  policy: 'PolicySync',
  services: 'ServiceConfigStateSync',
  management: 'NodeManagement',
} as const;

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Starts the workers: ExchangeChanges (heartbeat, then the node, its policy and its management
 * statuses read back from the Exchange) and one sync worker per kind of local write that pushes
 * writes the Exchange has not taken yet. Sync workers also wake up at once when a write is left
 * pending.
 */
export function startWorkers(ctx: AgentContext): Workers {
  for (const name of Object.values(WORKERS)) ctx.workers.set(name, 'added');
  const common = {
    registry: ctx.workers,
    log: ctx.log,
    retryMinMs: ctx.config.retryMinMs,
    retryMaxMs: ctx.config.retryMaxMs,
  };
  const changes = startLoop({
    ...common,
    name: WORKERS.changes,
    intervalMs: ctx.config.pollIntervalMs,
    tick: () => pollExchange(ctx),
  });
  const sync = (kind: PushKind): Loop =>
    startLoop({
      ...common,
      name: WORKERS[kind],
      intervalMs: ctx.config.pollIntervalMs,
      tick: () => (kind === 'management' ? pushManagement(ctx) : pushPending(ctx, kind)),
    });
  const pushers: Record<PushKind, Loop> = {
    userInput: sync('userInput'),
    policy: sync('policy'),
    services: sync('services'),
    management: sync('management'),
  };
  ctx.wake = (kind) => pushers[kind].wake();
  return {
    async stop() {
      ctx.wake = () => {};
      await Promise.all([changes.stop(), ...Object.values(pushers).map((loop) => loop.stop())]);
    },
  };
}
