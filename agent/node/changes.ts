import type { AgentContext } from '../context.ts';
import { ExchangeHttpError } from '../exchange/client.ts';
import type { ExchangeNode, ExchangePolicy } from '../exchange/types.ts';
import { pollManagement } from '../nmp/sync.ts';
import { enforceBuiltins, normalizePolicy, samePolicy } from '../policy/policy.ts';
import { applyServices } from '../services/changes.ts';
import { loadPolicy, loadUserInput, SEEN, type SyncKind, savePolicy, saveUserInput } from './local.ts';
import { credentials, isActive, loadNode, type NodeRecord, nodeSource, saveNode } from './record.ts';
import { unregister } from './unregister.ts';
import { normalizeUserInput } from './userinput.ts';

/**
 * One round of the changes worker: heartbeat, then read the node, its policy and its management
 * statuses from the Exchange and bring changes made there into the local copies. A local write that has not reached the
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
  const revision = { ...ctx.runtime.revision };
  const exchangeNode = await ctx.exchange.getNode(creds);
  const exchangePolicy = await ctx.exchange.getPolicy(creds);
  applyNode(ctx, node.id, exchangeNode, revision.userInput);
  applyPolicy(ctx, node.id, exchangePolicy, revision.policy);
  applyServices(ctx, node.id, exchangeNode, revision.services);
  await pollManagement(ctx, node, revision.management);
}

/** Still the same registration, nothing local pending or written since the poll began. */
export function canApply(ctx: AgentContext, id: string, kind: SyncKind, revision: number) {
  const node = loadNode(ctx.store);
  const ok =
    isActive(node) && node.id === id && !ctx.store.isPending(kind) && ctx.runtime.revision[kind] === revision;
  return ok ? node : undefined;
}

function applyNode(ctx: AgentContext, id: string, remote: ExchangeNode | undefined, revision: number): void {
  const node = canApply(ctx, id, 'userInput', revision);
  if (!node || !remote) return;
  const haGroup = remote.ha_group ?? '';
  if (haGroup !== node.ha_group) saveNode(ctx.store, { ...node, ha_group: haGroup });
  if (remote.lastUpdated !== undefined && remote.lastUpdated === ctx.store.get(SEEN.userInput)) return;
  const entries = normalizeUserInput(remote.userInput);
  ctx.store.transaction(() => {
    if (JSON.stringify(entries) !== JSON.stringify(loadUserInput(ctx.store))) {
      saveUserInput(ctx.store, entries);
      ctx.runtime.revision.userInput++;
      const message = `Node user input changed in the Exchange: ${JSON.stringify(entries)}`;
      ctx.events.node('info', 'update_node_userinput', message, nodeSource(node));
    }
    ctx.store.set(SEEN.userInput, remote.lastUpdated ?? null);
  });
}

function applyPolicy(
  ctx: AgentContext,
  id: string,
  remote: ExchangePolicy | undefined,
  revision: number,
): void {
  const node = canApply(ctx, id, 'policy', revision);
  if (!node) return;
  const seen = ctx.store.get<string | null>(SEEN.policy);
  const local = loadPolicy(ctx.store);
  if (!remote) {
    // Gone from the Exchange after we had seen it there: deleted there, so delete it here too.
    if (seen === undefined) return;
    ctx.store.transaction(() => {
      if (local) {
        savePolicy(ctx.store, undefined);
        ctx.runtime.revision.policy++;
        ctx.events.node(
          'info',
          'delete_node_policy',
          'Node policy deleted in the Exchange',
          nodeSource(node),
        );
      }
      ctx.store.delete(SEEN.policy);
    });
    return;
  }
  if (remote.lastUpdated !== undefined && remote.lastUpdated === seen) return;
  const fromExchange = normalizePolicy(remote);
  const enforced = enforceBuiltins(fromExchange, ctx.host, local);
  ctx.store.transaction(() => {
    if (!samePolicy(enforced, local)) {
      savePolicy(ctx.store, enforced);
      ctx.runtime.revision.policy++;
      const message = `Node policy changed in the Exchange: ${JSON.stringify(enforced)}`;
      ctx.events.node('info', 'update_node_policy', message, nodeSource(node));
    }
    // The Exchange copy lacks the measured built-ins (or has other values): put them back.
    if (!samePolicy(enforced, fromExchange)) ctx.store.markPending('policy', ctx.now());
    ctx.store.set(SEEN.policy, remote.lastUpdated ?? null);
  });
  if (ctx.store.isPending('policy')) ctx.wake('policy');
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
