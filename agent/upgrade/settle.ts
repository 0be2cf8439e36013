import { rm } from 'node:fs/promises';
import { credentials, isActive, loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { workingDirectory } from '../sync/management.ts';
import type { UpgradeHost } from './host.ts';
import { journalPath, readJournal, removeJournal } from './journal.ts';
import type { UpgradeLimits } from './settings.ts';
import { setJobStatus } from './status.ts';
import { restorePrevious, swapPaths } from './swap.ts';
import { notRunningAgain } from './workloads.ts';

/**
 * The end of an upgrade that restarted the agent, read from the journal it left (answers whether
 * it is still open: then no other job runs). The new version counts `successful` once it has
 * reached the Exchange and every agreement that ran at the swap (and is still active) runs again
 * (softwareVersions follow); past the journal's deadline the previous
 * executable is put back and started (`rollback started`); the previous version running with the
 * journal still there means the new one was rolled back (`rollback successful`).
 */
export async function settleUpgrade(
  ctx: AgentContext,
  limits: UpgradeLimits,
  host: UpgradeHost,
): Promise<boolean> {
  const path = journalPath(workingDirectory(ctx));
  const journal = await readJournal(path);
  if (!journal) return false;
  const node = loadNode(ctx.store);
  if (!isActive(node)) return true;
  const { key } = journal;
  const event = (severity: 'info' | 'error', code: string, message: string) =>
    ctx.events.node(severity, code, `${key}: ${message}`, nodeSource(node));
  if (host.version !== journal.toVersion) {
    const message = `Upgrade error: agent ${journal.toVersion} did not prove itself; agent ${host.version} runs again.`;
    await setJobStatus(ctx, key, { status: 'rollback successful', errorMessage: message });
    event('error', 'node_management_upgrade_rolled_back', message);
    await removeJournal(path);
    return false;
  }
  const reached = ctx.runtime.exchangeReachable === true;
  const notBack = reached ? await notRunningAgain(ctx, journal.running ?? []) : [];
  if (reached && notBack.length === 0) {
    await setJobStatus(ctx, key, {
      status: 'successful',
      upgradedVersions: { softwareVersion: journal.toVersion },
    });
    await ctx.exchange.patchNode(credentials(node), 'softwareVersions', { horizon: journal.toVersion });
    await rm(swapPaths(journal.executable).previous, { force: true });
    await removeJournal(path);
    event(
      'info',
      'node_management_upgrade_successful',
      `agent ${journal.toVersion} started, reached the Exchange and runs its agreements again.`,
    );
    return false;
  }
  if (ctx.now() < journal.deadline) return true;
  const message = reached
    ? `Upgrade error: agent ${journal.toVersion} did not run agreement(s) ${notBack.join(', ')} again in time.`
    : `Upgrade error: agent ${journal.toVersion} did not reach the Exchange in time.`;
  await setJobStatus(ctx, key, {
    status: 'rollback started',
    errorMessage: message,
    stageMs: limits.restartMs,
  });
  if (await restorePrevious(journal.executable)) {
    event('error', 'node_management_upgrade_rollback', message);
    host.restart(journal.executable);
    return true;
  }
  await setJobStatus(ctx, key, {
    status: 'rollback failed',
    errorMessage: `${message} No previous executable was kept.`,
  });
  event('error', 'node_management_upgrade_rollback_failed', message);
  await removeJournal(path);
  return false;
}
