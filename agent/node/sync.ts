import type { AgentContext } from '../context.ts';
import { AgentError, exchangeFailed, notRegistered } from '../errors.ts';
import { type Credentials, ExchangeHttpError, ExchangeUnavailableError } from '../exchange/client.ts';
import type { NodePolicy, RegisteredService, UserInputEntry } from '../exchange/types.ts';
import { loadLocal, SEEN, type SyncKind, type SyncValue, saveLocal } from './local.ts';
import { credentials, isActive, loadNode, type NodeRecord, nodeSource } from './record.ts';

const WHAT: Record<SyncKind, string> = {
  userInput: 'node user input',
  policy: 'node policy',
  services: 'service configuration state',
};

/** Event code of a write the Exchange refused. */
export const REFUSED_CODE: Record<SyncKind, string> = {
  userInput: 'error_userinput_update',
  policy: 'error_policy_update',
  services: 'error_changing_service_configuration_state',
};

/** Sends a local document to the Exchange: user input and services are node attributes, the policy its own resource. */
export async function pushValue<K extends SyncKind>(
  ctx: AgentContext,
  creds: Credentials,
  kind: K,
  value: SyncValue<K>,
): Promise<void> {
  if (kind === 'userInput') await ctx.exchange.patchNode(creds, 'userInput', value as UserInputEntry[]);
  else if (kind === 'services')
    await ctx.exchange.patchNode(creds, 'registeredServices', value as RegisteredService[]);
  else if (value) await ctx.exchange.putPolicy(creds, value as NodePolicy);
  else await ctx.exchange.deletePolicy(creds);
}

/**
 * A local write of user input or policy. `compute` gets the registered node and the current local
 * value and returns the new one. The new value goes to the Exchange first: accepted → stored;
 * Exchange unreachable → stored and left for the sync worker (nothing written locally is lost);
 * refused → nothing stored, the caller gets the Exchange's reason.
 */
export function writeThrough<K extends SyncKind>(
  ctx: AgentContext,
  kind: K,
  compute: (node: NodeRecord, current: SyncValue<K>) => SyncValue<K>,
): Promise<{ node: NodeRecord; value: SyncValue<K>; pushed: boolean }> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node)) throw notRegistered();
    const value = compute(node, loadLocal(ctx.store, kind));
    let pushed = false;
    try {
      await pushValue(ctx, credentials(node), kind, value);
      pushed = true;
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError)) throw refusal(kind, err);
      ctx.log.warn('exchange unreachable, write kept for later', { kind, reason: err.message });
    }
    ctx.store.transaction(() => {
      saveLocal(ctx.store, kind, value);
      if (pushed) ctx.store.clearPending(kind);
      else ctx.store.markPending(kind, ctx.now());
    });
    ctx.runtime.revision[kind]++;
    if (!pushed) ctx.wake(kind);
    return { node, value, pushed };
  });
}

function refusal(kind: SyncKind, err: unknown): Error {
  if (!(err instanceof ExchangeHttpError)) return err instanceof Error ? err : new Error(String(err));
  if (err.status === 400)
    return new AgentError(400, `The Exchange rejected the ${WHAT[kind]}: ${err.message}`, 'body');
  return exchangeFailed(`updating the ${WHAT[kind]}: ${err.message}`);
}

/**
 * Sync worker step: pushes the local document when a write is still pending. Unreachable (or
 * credentials refused, which a token update may fix) → throws so the worker backs off and retries.
 * Refused for good → the write is dropped with an error event and the Exchange copy comes back
 * at the next poll.
 */
export function pushPending(ctx: AgentContext, kind: SyncKind): Promise<void> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node) || !ctx.store.isPending(kind)) return;
    try {
      await pushValue(ctx, credentials(node), kind, loadLocal(ctx.store, kind));
    } catch (err) {
      if (!(err instanceof ExchangeHttpError) || err.status === 401 || err.status === 403) throw err;
      ctx.store.transaction(() => {
        ctx.store.clearPending(kind);
        ctx.store.delete(SEEN[kind]);
        ctx.events.node(
          'error',
          REFUSED_CODE[kind],
          `The Exchange refused the ${WHAT[kind]} written locally: ${err.message}`,
          nodeSource(node),
        );
      });
      return;
    }
    ctx.store.clearPending(kind);
    ctx.log.info('pushed local write to the exchange', { kind });
  });
}
