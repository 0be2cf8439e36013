import type { AgentContext } from '../context.ts';
import { ExchangeHttpError } from '../exchange/client.ts';
import type { ExchangeNode } from '../exchange/types.ts';
import { credentials, isActive, loadNode, type NodeRecord, nodeSource } from '../node/record.ts';
import { unregister } from '../node/unregister.ts';
import type { PollRound } from './document.ts';
import { DOCUMENTS } from './documents.ts';

/**
 * One round of the changes worker: heartbeat, then read every synced document's Exchange copy
 * and bring changes made there into the local copies. A local write that has not reached the
 * Exchange yet wins over the Exchange copy (it is pushed next), and a poll that started before a
 * local write never overwrites it (revision check).
 */
export async function pollExchange(ctx: AgentContext): Promise<void> {
  const node = loadNode(ctx.store);
  if (!isActive(node)) return;
  const creds = credentials(node);
  try {
    await ctx.exchange.heartbeat(creds);
  } catch (err) {
    if (err instanceof ExchangeHttpError && err.status === 401) return selfUnregister(ctx, node);
    heartbeatFailed(ctx, node, err);
    throw err;
  }
  heartbeatRestored(ctx, node);
  let exchangeNode: Promise<ExchangeNode | undefined> | undefined;
  const round: PollRound = {
    ctx,
    node,
    creds,
    revision: { ...ctx.runtime.revision },
    exchangeNode: () => {
      exchangeNode ??= ctx.exchange.getNode(creds);
      return exchangeNode;
    },
  };
  // Read everything first: a read that fails leaves every local copy as it was.
  const documents = Object.values(DOCUMENTS);
  const remotes: unknown[] = [];
  for (const doc of documents) remotes.push(await doc.pull(round));
  documents.forEach((doc, i) => {
    doc.apply(round, remotes[i]);
  });
}

function heartbeatFailed(ctx: AgentContext, node: NodeRecord, err: unknown): void {
  if (ctx.runtime.exchangeReachable === false) return;
  ctx.runtime.exchangeReachable = false;
  const detail = err instanceof Error ? err.message : String(err);
  const message = `Node heartbeat failed for node ${node.organization}/${node.id}. Error: ${detail}`;
  ctx.events.node('error', 'node_heartbeat_failed', message, nodeSource(node));
}

function heartbeatRestored(ctx: AgentContext, node: NodeRecord): void {
  const wasDown = ctx.runtime.exchangeReachable === false;
  ctx.runtime.exchangeReachable = true;
  if (!wasDown) return;
  const message = `Node heartbeat restored for node ${node.organization}/${node.id}.`;
  ctx.events.node('info', 'node_heartbeat_restored', message, nodeSource(node));
}

/** The Exchange no longer accepts the node (deleted there): unregister locally, as upstream does. */
async function selfUnregister(ctx: AgentContext, node: NodeRecord): Promise<void> {
  ctx.log.warn('the exchange refused the node credentials on heartbeat; unregistering', { node: node.id });
  const started = unregister(ctx, { removeNode: false, deepClean: false });
  if (started)
    void started.catch((err) => ctx.log.error('self-unregistration failed', { error: String(err) }));
}
