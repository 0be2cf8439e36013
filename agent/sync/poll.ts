import { type Credentials, ExchangeHttpError } from '../exchange/client.ts';
import type { ExchangeNode, HeartbeatIntervalsRecord } from '../exchange/types.ts';
import { credentials, isActive, loadNode, type NodeRecord, nodeSource } from '../node/record.ts';
import { unregister } from '../node/unregister.ts';
import type { AgentContext } from '../runtime/context.ts';
import { syncManagementPolicies } from '../upgrade/policies.ts';
import type { PollRound } from './document.ts';
import { DOCUMENTS } from './documents.ts';
import { type FeedNews, readFeed, SAFETY_REREAD_MS } from './feed.ts';

/**
 * One round of the changes worker: one `POST /orgs/{org}/changes` (the heartbeat and the change
 * check, as upstream's agent), then the Exchange copies of the synced documents the feed names for
 * this node, brought into the local copies. Every document is read at start, after an outage, and
 * every SAFETY_REREAD_MS (docs/agent.md, "Polling the Exchange"). A local write that has not
 * reached the Exchange yet wins over the Exchange copy (it is pushed next), and a poll that started
 * before a local write never overwrites it (revision check). Answers whether the round saw
 * activity for the node (the poll interval drops to its minimum).
 */
export async function pollExchange(ctx: AgentContext): Promise<boolean> {
  const node = loadNode(ctx.store);
  if (!isActive(node)) {
    ctx.signals.announced(undefined);
    return false;
  }
  const creds = credentials(node);
  let news: FeedNews;
  try {
    news = await readFeed(ctx, node, creds);
  } catch (err) {
    if (err instanceof ExchangeHttpError && err.status === 401) {
      await selfUnregister(ctx, node);
      return false;
    }
    heartbeatFailed(ctx, node, err);
    throw err;
  }
  const recovering = ctx.runtime.exchangeReachable !== true;
  heartbeatRestored(ctx, node);
  ctx.signals.announced(news.signalsUrl);
  const now = ctx.now();
  const full = recovering || now - ctx.runtime.lastFullReadAt >= SAFETY_REREAD_MS;
  // Mail sent while the poll could not tell is read too.
  if (full || news.aboutNode.has('nodemsgs')) ctx.protocol?.mailArrived();
  let exchangeNode: Promise<ExchangeNode | undefined> | undefined;
  const round: PollRound = {
    ctx,
    node,
    creds,
    revision: { ...ctx.runtime.revision },
    exchangeNode: () => {
      exchangeNode ??= ctx.exchange.getNode(creds).then((read) => {
        ctx.runtime.remoteIntervals.node = read?.heartbeatIntervals ?? null;
        return read;
      });
      return exchangeNode;
    },
  };
  const documents = Object.values(DOCUMENTS).filter(
    (doc) => full || doc.resources.some((resource) => news.aboutNode.has(resource)),
  );
  if (full) await readOrgIntervals(ctx, node, creds);
  // Read everything first: a read that fails leaves every local copy as it was.
  const remotes: unknown[] = [];
  for (const doc of documents) remotes.push(await doc.pull(round));
  documents.forEach((doc, i) => {
    doc.apply(round, remotes[i]);
  });
  if (full || news.managementPolicies) await syncManagementPolicies(round);
  if (full) ctx.runtime.lastFullReadAt = now;
  return [...news.aboutNode].some((resource) => !OWN_REPORTS.has(resource));
}

/** Rows the node's own reports leave (agent/status-report): not activity for the node. */
const OWN_REPORTS = new Set(['nodestatus', 'nodeerrors']);

/** The org's `heartbeatIntervals` (for a node that has none of its own). */
async function readOrgIntervals(ctx: AgentContext, node: NodeRecord, creds: Credentials): Promise<void> {
  const org = (await ctx.exchange.getOrg(creds, node.organization)) as
    | { heartbeatIntervals?: HeartbeatIntervalsRecord | null }
    | undefined;
  ctx.runtime.remoteIntervals.org = org?.heartbeatIntervals ?? null;
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
  await Promise.resolve();
}
