import { setTimeout as sleep } from 'node:timers/promises';
import { archiveAllAgreements } from '../agreements/cancel.ts';
import { deleteAllAgreements } from '../agreements/store.ts';
import { LAST_UNREGISTRATION_KEY } from '../events/eventlog.ts';
import { ExchangeHttpError, ExchangeUnavailableError } from '../exchange/client.ts';
import { AgentError } from '../ground/errors.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { PushKind } from '../runtime/sync-kinds.ts';
import { clearLocal } from './local.ts';
import {
  credentials,
  deleteNode,
  isActive,
  loadNode,
  type NodeRecord,
  nodeSource,
  saveNode,
} from './record.ts';

interface UnregisterOptions {
  /** Delete the node in the Exchange instead of only clearing its registration there. */
  removeNode: boolean;
  /** Also drop the event log of earlier registrations. */
  deepClean: boolean;
}

/**
 * Starts unregistering the active node (state → unconfiguring at once) and returns the promise of
 * its completion, or undefined when no node is configuring/configured. Local state is removed
 * whatever the Exchange says; the promise rejects (503) when the Exchange could not be cleared.
 */
export function unregister(ctx: AgentContext, options: UnregisterOptions): Promise<void> | undefined {
  const node = loadNode(ctx.store);
  if (!isActive(node)) return undefined;
  const leaving: NodeRecord = {
    ...node,
    configstate: { state: 'unconfiguring', last_update_time: Math.floor(ctx.now() / 1000) },
  };
  ctx.store.transaction(() => {
    saveNode(ctx.store, leaving);
    ctx.store.set(OPTIONS_KEY, options);
  });
  return track(ctx, finish(ctx, leaving, options));
}

/** A process stopped half-way through an unregistration: finish it with the options it had. */
export function resumeUnregistration(ctx: AgentContext): Promise<void> | undefined {
  const node = loadNode(ctx.store);
  if (node?.configstate.state !== 'unconfiguring') return undefined;
  const options = ctx.store.get<UnregisterOptions>(OPTIONS_KEY) ?? { removeNode: false, deepClean: false };
  ctx.log.info('resuming an interrupted unregistration', { node: `${node.organization}/${node.id}` });
  return track(ctx, finish(ctx, node, options));
}

const OPTIONS_KEY = 'node.unregistration';

function track(ctx: AgentContext, promise: Promise<void>): Promise<void> {
  const done = promise.finally(() => {
    ctx.runtime.unconfiguring = undefined;
  });
  ctx.runtime.unconfiguring = done;
  return done;
}

function finish(ctx: AgentContext, node: NodeRecord, options: UnregisterOptions): Promise<void> {
  // Under the write lock: a push in flight completes first, later writes see `unconfiguring`.
  return ctx.writes.run(async () => {
    let failure: Error | undefined;
    // Agreements end first (116): the agbot is told and no container is left behind.
    await ctx.protocol
      ?.endAll()
      .catch((err) => ctx.log.error('ending agreements failed', { error: String(err) }));
    try {
      await retrying(ctx, () => clearInExchange(ctx, node, options.removeNode));
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    ctx.store.transaction(() => {
      deleteNode(ctx.store);
      clearLocal(ctx.store);
      ctx.store.delete(OPTIONS_KEY);
      const source = nodeSource(node);
      if (failure) {
        ctx.events.node(
          'error',
          'error_node_unregistration',
          `Error in node unregistration. ${failure.message}`,
          source,
        );
      }
      archiveAllAgreements(ctx);
      const done = `Node unregistration complete for node ${node.id}.`;
      ctx.events.node('info', 'node_unregistration_complete', done, source);
      if (options.deepClean) {
        ctx.store.clearEvents();
        deleteAllAgreements(ctx.store);
      }
      ctx.store.set(LAST_UNREGISTRATION_KEY, ctx.store.lastEventId());
    });
    for (const kind of Object.keys(ctx.runtime.revision) as PushKind[]) ctx.runtime.revision[kind]++;
    ctx.runtime.exchangeReachable = undefined;
    ctx.log.info('node unregistered', {
      node: `${node.organization}/${node.id}`,
      ...options,
      exchangeCleared: !failure,
    });
    if (failure) {
      const what = options.removeNode ? 'delete the node from' : 'clear the node registration in';
      throw new AgentError(
        503,
        `Unable to ${what} the Exchange; local state was removed. Please remove ${node.organization}/${node.id} in the Exchange. The error was: ${failure.message}`,
        'exchange',
      );
    }
  });
}

async function clearInExchange(ctx: AgentContext, node: NodeRecord, removeNode: boolean): Promise<void> {
  const creds = credentials(node);
  try {
    if (removeNode) {
      await ctx.exchange.deleteNode(creds);
      return;
    }
    // Out of the agbots' searches (docs/protocol.md#unregistration).
    await ctx.exchange.patchNode(creds, 'publicKey', '');
    await ctx.exchange.patchNode(creds, 'userInput', []);
    await ctx.exchange.patchNode(creds, 'registeredServices', []);
    if (node.pattern) await ctx.exchange.patchNode(creds, 'pattern', '');
  } catch (err) {
    // 401: the node is already gone from the Exchange (or no longer ours): nothing to clear.
    if (err instanceof ExchangeHttpError && err.status === 401) return;
    throw err;
  }
}

/** A few quick retries when the Exchange is unreachable; unregistration must not hang for long. */
async function retrying(ctx: AgentContext, action: () => Promise<void>, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError) || attempt >= attempts) throw err;
      await sleep(ctx.config.retryMinMs * 2 ** (attempt - 1));
    }
  }
}
