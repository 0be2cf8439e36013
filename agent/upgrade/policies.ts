import { ExchangeHttpError } from '../exchange/client.ts';
import { loadDirty, loadSeen, loadStatuses, saveDirty, saveSeen, saveStatuses } from '../nmp/store.ts';
import { loadPolicy } from '../node/local.ts';
import { credentials, isActive, loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { PollRound } from '../sync/document.ts';
import { workingDirectory, writeStatuses } from '../sync/management.ts';
import { planStatuses, type WindowDraw } from './schedule.ts';
import { wakeUpgrades } from './worker.ts';

/**
 * Poll step (at start, after an outage, and when a `mgmtpolicy` row of the node's org arrives):
 * reads the org's policies once and brings the node's statuses in line (schedule.ts), written
 * through to the Exchange. Wakes the upgrade worker, which runs a job when it is due.
 */
export async function syncManagementPolicies(round: PollRound, draw?: WindowDraw): Promise<void> {
  const { ctx, node, creds } = round;
  const nmps = await ctx.exchange.getManagementPolicies(creds, node.organization);
  const scope = { org: node.organization, pattern: node.pattern ?? '', policy: loadPolicy(ctx.store) };
  const plan = planStatuses(nmps, scope, loadStatuses(ctx.store), ctx.now(), workingDirectory(ctx), draw);
  if (plan.remove.length > 0) await removeStatuses(ctx, plan.remove);
  const keys = Object.keys(plan.write);
  if (keys.length === 0) return;
  await writeStatuses(ctx, () => plan.write);
  for (const key of keys) {
    const at = plan.write[key]?.agentUpgradePolicyStatus.scheduledTime;
    const message = `Node management policy ${key} applies to this node: agent upgrade scheduled at ${at}.`;
    ctx.events.node('info', 'node_management_policy_scheduled', message, nodeSource(node));
  }
  wakeUpgrades(ctx);
}

/** Deletes statuses in the Exchange (already gone is fine), then locally. Unreachable: throws, the next full read retries. */
async function removeStatuses(ctx: AgentContext, keys: string[]): Promise<void> {
  await ctx.writes.run(async () => {
    const node = loadNode(ctx.store);
    if (!isActive(node)) return;
    for (const key of keys) {
      try {
        await ctx.exchange.deleteManagementStatus(credentials(node), key.slice(key.indexOf('/') + 1));
      } catch (err) {
        if (!(err instanceof ExchangeHttpError && err.status === 404)) throw err;
      }
    }
    ctx.store.transaction(() => {
      const statuses = loadStatuses(ctx.store);
      const seen = loadSeen(ctx.store);
      for (const key of keys) {
        delete statuses[key];
        delete seen[key];
      }
      saveStatuses(ctx.store, statuses);
      saveSeen(ctx.store, seen);
      saveDirty(
        ctx.store,
        loadDirty(ctx.store).filter((k) => !keys.includes(k)),
      );
      for (const key of keys) {
        const message = `Node management policy ${key} no longer applies to this node (removed, disabled or changed): its status is removed.`;
        ctx.events.node('info', 'node_management_policy_removed', message, nodeSource(node));
      }
    });
    ctx.runtime.revision.management++;
  });
}
