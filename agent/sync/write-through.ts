import { type Credentials, ExchangeUnavailableError } from '../exchange/client.ts';
import { notRegistered } from '../ground/errors.ts';
import { credentials, isActive, loadNode, type NodeRecord } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { PushKind, SyncKind } from '../runtime/sync-kinds.ts';
import { DOCUMENTS, NODE_DOCUMENTS, type SyncValue } from './documents.ts';
import type { NodeDocument } from './node-document.ts';
import { refusal } from './node-document.ts';

const documentOf = <K extends SyncKind>(kind: K) =>
  NODE_DOCUMENTS[kind] as unknown as NodeDocument<SyncValue<K>>;

/** Sends a local document to the Exchange. */
export function pushValue<K extends SyncKind>(
  ctx: AgentContext,
  creds: Credentials,
  kind: K,
  value: SyncValue<K>,
): Promise<void> {
  return documentOf(kind).push(ctx, creds, value);
}

/**
 * A local write of a synced document. `compute` gets the registered node and the current local
 * value and returns the new one. The new value goes to the Exchange first: accepted → stored;
 * Exchange unreachable → stored and left for the sync worker (nothing written locally is lost);
 * refused → nothing stored, the caller gets the Exchange's reason.
 */
export function writeThrough<K extends SyncKind>(
  ctx: AgentContext,
  kind: K,
  compute: (node: NodeRecord, current: SyncValue<K>) => SyncValue<K>,
): Promise<{ node: NodeRecord; value: SyncValue<K>; pushed: boolean }> {
  const doc = documentOf(kind);
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node)) throw notRegistered();
    const value = compute(node, doc.load(ctx.store));
    let pushed = false;
    try {
      await doc.push(ctx, credentials(node), value);
      pushed = true;
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError)) throw refusal(doc, err);
      ctx.log.warn('exchange unreachable, write kept for later', { kind, reason: err.message });
    }
    ctx.store.transaction(() => {
      doc.save(ctx.store, value);
      if (pushed) ctx.store.clearPending(kind);
      else ctx.store.markPending(kind, ctx.now());
    });
    ctx.runtime.revision[kind]++;
    if (!pushed) ctx.wake(kind);
    return { node, value, pushed };
  });
}

/** Event code of a write of that kind the Exchange refused. */
export const refusedCode = (kind: SyncKind) => NODE_DOCUMENTS[kind].refusedCode;

/** A pending push of that kind, as its sync worker does it. */
export const pushPending = (ctx: AgentContext, kind: PushKind) => DOCUMENTS[kind].pushPending(ctx);
