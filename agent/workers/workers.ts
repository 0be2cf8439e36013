import type { AgentContext } from '../context.ts';
import { DOCUMENTS } from '../sync/documents.ts';
import type { PushKind } from '../sync/kinds.ts';
import { pollExchange } from '../sync/poll.ts';
import { type Loop, startLoop } from './loop.ts';

/** Worker names shown by GET /status/workers. */
export const WORKERS = {
  changes: 'ExchangeChanges',
  ...(Object.fromEntries(Object.entries(DOCUMENTS).map(([kind, doc]) => [kind, doc.worker])) as Record<
    PushKind,
    string
  >),
};

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Starts the workers: ExchangeChanges (heartbeat, then every synced document read back from the
 * Exchange) and one sync worker per synced document that pushes writes the Exchange has not
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
  const changes = startLoop({
    ...common,
    name: WORKERS.changes,
    intervalMs: ctx.config.pollIntervalMs,
    tick: () => pollExchange(ctx),
  });
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
  return {
    async stop() {
      ctx.wake = () => {};
      await Promise.all([changes.stop(), ...[...pushers.values()].map((loop) => loop.stop())]);
    },
  };
}
