import { type Credentials, ExchangeHttpError } from '../exchange/client.ts';
import { AgentError, exchangeFailed } from '../ground/errors.ts';
import { SEEN } from '../node/local.ts';
import { credentials, isActive, loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { SyncKind } from '../runtime/sync-kinds.ts';
import type { Store } from '../store/store.ts';
import type { SyncedDocument } from './document.ts';

/** A document of the node written through to the Exchange as a whole (user input, policy, registered services). */
interface NodeDocumentSpec<T, R> extends Omit<SyncedDocument<R>, 'pushPending' | 'kind'> {
  kind: SyncKind;
  /** How messages name it. */
  what: string;
  /** Event code of a write the Exchange refused. */
  refusedCode: string;
  load(store: Store): T;
  save(store: Store, value: T): void;
  push(ctx: AgentContext, creds: Credentials, value: T): Promise<void>;
}

export interface NodeDocument<T, R = unknown> extends NodeDocumentSpec<T, R>, SyncedDocument<R> {
  kind: SyncKind;
}

export function nodeDocument<T, R>(spec: NodeDocumentSpec<T, R>): NodeDocument<T, R> {
  const doc: NodeDocument<T, R> = { ...spec, pushPending: (ctx) => pushPending(ctx, doc) };
  return doc;
}

/** The Exchange refused a local write: 400 names the body, anything else is the Exchange failing. */
export function refusal(doc: { what: string }, err: unknown): Error {
  if (!(err instanceof ExchangeHttpError)) return err instanceof Error ? err : new Error(String(err));
  if (err.status === 400)
    return new AgentError(400, `The Exchange rejected the ${doc.what}: ${err.message}`, 'body');
  return exchangeFailed(`updating the ${doc.what}: ${err.message}`);
}

/**
 * Sync worker step: pushes the local document when a write is still pending. Unreachable (or
 * credentials refused, which a token update may fix) → throws so the worker backs off and retries.
 * Refused for good → the write is dropped with an error event and the Exchange copy comes back
 * at the next poll.
 */
function pushPending<T>(ctx: AgentContext, doc: NodeDocument<T>): Promise<void> {
  const { kind } = doc;
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node) || !ctx.store.isPending(kind)) return;
    try {
      await doc.push(ctx, credentials(node), doc.load(ctx.store));
    } catch (err) {
      if (!(err instanceof ExchangeHttpError) || err.status === 401 || err.status === 403) throw err;
      ctx.store.transaction(() => {
        ctx.store.clearPending(kind);
        ctx.store.delete(SEEN[kind]);
        ctx.events.node(
          'error',
          doc.refusedCode,
          `The Exchange refused the ${doc.what} written locally: ${err.message}`,
          nodeSource(node),
        );
      });
      return;
    }
    ctx.store.clearPending(kind);
    ctx.log.info('pushed local write to the exchange', { kind });
  });
}
