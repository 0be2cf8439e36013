import { join } from 'node:path';
import { canonical } from '../attributes/attributes.ts';
import { type Credentials, ExchangeHttpError, ExchangeUnavailableError } from '../exchange/client.ts';
import type { ExchangeManagementStatus } from '../exchange/types.ts';
import { AgentError, exchangeFailed } from '../ground/errors.ts';
import { fromExchange, toExchange } from '../nmp/exchange-copy.ts';
import {
  loadDirty,
  loadSeen,
  loadStatuses,
  type NmpStatuses,
  saveDirty,
  saveSeen,
  saveStatuses,
} from '../nmp/store.ts';
import { credentials, isActive, loadNode, type NodeRecord, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { PollRound, SyncedDocument } from './document.ts';

type ExchangeManagementStatuses = Record<string, ExchangeManagementStatus>;

/** Where upgrade jobs would read and write their files. */
export const workingDirectory = (ctx: AgentContext) => join(ctx.config.dataDir, 'nmp');

/**
 * The node management statuses (`.../managementStatus/{nmp}`), written back one by one: a status
 * changed locally stays marked dirty until the Exchange has it.
 */
export const managementDocument: SyncedDocument<ExchangeManagementStatuses> = {
  kind: 'management',
  worker: 'NodeManagement',
  resources: ['nodemgmtpolstatus'],
  pull: (round) => round.ctx.exchange.getManagementStatuses(round.creds),
  apply: applyManagement,
  pushPending: pushManagement,
};

/**
 * Poll step: statuses created or changed in the Exchange (`lastUpdated` moved) become the local
 * ones; statuses gone from the Exchange are dropped. A status changed locally and not yet written
 * back wins, and nothing is applied when a local change happened while the poll was reading.
 */
function applyManagement(round: PollRound, remote: ExchangeManagementStatuses): void {
  const { ctx, node } = round;
  const now = loadNode(ctx.store);
  if (!isActive(now) || now.id !== node.id || ctx.runtime.revision.management !== round.revision.management)
    return;
  const dirty = new Set(loadDirty(ctx.store));
  const seen = loadSeen(ctx.store);
  const statuses = loadStatuses(ctx.store);
  const changed: string[] = [];
  for (const [key, status] of Object.entries(remote)) {
    const stamp = status.agentUpgradePolicyStatus.lastUpdated ?? '';
    if (dirty.has(key) || (seen[key] !== undefined && seen[key] === stamp)) continue;
    seen[key] = stamp;
    const next = fromExchange(status, statuses[key], workingDirectory(ctx));
    if (canonical(next) === canonical(statuses[key])) continue;
    statuses[key] = next;
    changed.push(`${key}: ${next.agentUpgradePolicyStatus.status}`);
  }
  const gone = Object.keys(statuses).filter((key) => !Object.hasOwn(remote, key) && !dirty.has(key));
  for (const key of gone) {
    delete statuses[key];
    delete seen[key];
  }
  if (changed.length === 0 && gone.length === 0 && canonical(seen) === canonical(loadSeen(ctx.store))) return;
  ctx.store.transaction(() => {
    saveStatuses(ctx.store, statuses);
    saveSeen(ctx.store, seen);
    const source = nodeSource(now);
    for (const line of changed) {
      const message = `Node management status from the Exchange: ${line}.`;
      ctx.events.node('info', 'node_management_status_received', message, source);
    }
    for (const key of gone) {
      const message = `Node management status ${key} was removed from the Exchange.`;
      ctx.events.node('info', 'node_management_status_removed', message, source);
    }
  });
}

/**
 * A local change of some statuses: written to the Exchange first; refused there → nothing stored
 * and the caller gets the reason; unreachable → stored and written back by the NodeManagement
 * worker later. `change` gets the current statuses and returns the changed ones.
 */
export function writeStatuses(
  ctx: AgentContext,
  change: (current: NmpStatuses, node: NodeRecord) => NmpStatuses,
): Promise<NmpStatuses> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node)) throw notRecorded();
    const statuses = loadStatuses(ctx.store);
    const changed = change(statuses, node);
    if (Object.keys(changed).length === 0) return changed;
    let pushed = true;
    try {
      for (const [key, status] of Object.entries(changed)) await push(ctx, credentials(node), key, status);
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError)) throw refusal(err);
      pushed = false;
      ctx.log.warn('exchange unreachable, node management status kept for later', { reason: err.message });
    }
    ctx.store.transaction(() => {
      saveStatuses(ctx.store, Object.assign(statuses, changed));
      if (!pushed) {
        saveDirty(ctx.store, [...loadDirty(ctx.store), ...Object.keys(changed)]);
        ctx.store.markPending('management', ctx.now());
      }
    });
    ctx.runtime.revision.management++;
    if (!pushed) ctx.wake('management');
    return changed;
  });
}

/**
 * NodeManagement worker step: writes back the statuses changed while the Exchange was away.
 * Unreachable → throws (the worker backs off); refused → that change is dropped with an error
 * event and the Exchange's copy comes back at the next poll.
 */
function pushManagement(ctx: AgentContext): Promise<void> {
  return ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node) || !ctx.store.isPending('management')) return;
    const statuses = loadStatuses(ctx.store);
    for (const key of loadDirty(ctx.store)) {
      const status = statuses[key];
      try {
        if (status) await push(ctx, credentials(node), key, status);
      } catch (err) {
        if (!(err instanceof ExchangeHttpError) || err.status === 401 || err.status === 403) throw err;
        const seen = loadSeen(ctx.store);
        delete seen[key];
        saveSeen(ctx.store, seen);
        const message = `The Exchange refused the node management status ${key} written locally: ${err.message}`;
        ctx.events.node('error', 'error_node_management_status_update', message, nodeSource(node));
      }
      saveDirty(
        ctx.store,
        loadDirty(ctx.store).filter((k) => k !== key),
      );
    }
    ctx.store.clearPending('management');
  });
}

/** PUT .../managementStatus/{name}; a status of another org than the node's stays local. */
async function push(ctx: AgentContext, creds: Credentials, key: string, status: NmpStatuses[string]) {
  const slash = key.indexOf('/');
  if (key.slice(0, slash) !== creds.org) return;
  await ctx.exchange.putManagementStatus(creds, key.slice(slash + 1), toExchange(status));
}

function refusal(err: unknown): Error {
  if (err instanceof AgentError) return err;
  if (err instanceof ExchangeHttpError && err.status === 400)
    return new AgentError(400, `The Exchange rejected the node management status: ${err.message}`, 'body');
  if (err instanceof ExchangeHttpError)
    return exchangeFailed(`updating the node management status: ${err.message}`);
  return err instanceof Error ? err : new Error(String(err));
}

/** Upstream's answer on node management routes when no node is registered. */
export const notRecorded = () =>
  new AgentError(
    404,
    "Exchange registration not recorded. Complete account and node registration with an exchange and then record node registration using this API's /node path.",
    'management',
  );
