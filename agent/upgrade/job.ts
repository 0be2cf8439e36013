import { join } from 'node:path';
import { loadStatuses } from '../nmp/store.ts';
import { credentials, isActive, loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { workingDirectory } from '../sync/management.ts';
import { type DownloadResult, downloadUpgrade } from './download.ts';
import { isTransient, StageFailure } from './failure.ts';
import { PID_FILE } from './host.ts';
import { journalPath, removeJournal, writeJournal } from './journal.ts';
import { pinnedUpgradeKeys } from './keys.ts';
import type { UpgradeLimits } from './settings.ts';
import { retryJob, setJobStatus } from './status.ts';
import { swapIn } from './swap.ts';
import type { JobRunner } from './worker.ts';
import { runningAgreements } from './workloads.ts';

/** Runs one stage under its own deadline and the agent's stop signal; the stage must honour `signal`. */
export async function withDeadline<T>(
  ms: number,
  stop: AbortSignal,
  stage: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.any([stop, AbortSignal.timeout(ms)]);
  return await Promise.race([
    stage(signal),
    new Promise<never>((_, reject) => {
      const fail = () =>
        reject(
          stop.aborted
            ? stop.reason
            : new StageFailure('failed', `the stage did not finish within ${Math.round(ms / 1000)} s`, true),
        );
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    }),
  ]);
}

/** The job's end on a refusal or a deadline: its status, its message, and an event. */
export async function failJob(ctx: AgentContext, key: string, err: unknown, stage: string): Promise<void> {
  const failure = err instanceof StageFailure ? err : undefined;
  const detail = err instanceof Error ? err.message : String(err);
  const message = `Agent upgrade ${stage} failed: ${detail}`;
  await setJobStatus(ctx, key, { status: failure?.status ?? 'failed', errorMessage: message });
  const node = loadNode(ctx.store);
  if (node)
    ctx.events.node('error', 'node_management_upgrade_failed', `${key}: ${message}`, nodeSource(node));
}

/**
 * A download that may work later (failure.ts's isTransient): back to `waiting`, scheduled after a
 * back-off doubling from the retry setting, as upstream's agent retries (its statuses, its count of
 * attempts); after the last attempt, `download failed`.
 */
async function retryDownload(
  ctx: AgentContext,
  key: string,
  err: unknown,
  limits: UpgradeLimits,
): Promise<void> {
  const attempts = (loadStatuses(ctx.store)[key]?.agentUpgradeInternal.downloadAttempts ?? 0) + 1;
  const detail = err instanceof Error ? err.message : String(err);
  if (attempts >= limits.downloadAttempts) {
    await failJob(
      ctx,
      key,
      new StageFailure('download failed', `${detail} (attempt ${attempts} of ${limits.downloadAttempts})`),
      'download',
    );
    return;
  }
  const at = ctx.now() + limits.retryMs * 2 ** (attempts - 1);
  const message = `Agent upgrade download failed: ${detail} (attempt ${attempts} of ${limits.downloadAttempts}; again at ${new Date(at).toISOString()})`;
  await retryJob(ctx, key, { errorMessage: message, at, attempts });
  const node = loadNode(ctx.store);
  if (node)
    ctx.events.node('warning', 'node_management_upgrade_retry', `${key}: ${message}`, nodeSource(node));
}

/**
 * One job: `download started` → the manifest and this architecture's executable downloaded and
 * verified (download.ts) → `downloaded`, or `no action required` when the agent already runs that
 * version → `initiated`, the journal, the swap (swap.ts) and the restart (host.ts); the agent that
 * starts next ends the job (settle.ts).
 */
export const runUpgradeJob: JobRunner = async (ctx, key, limits, stop, host) => {
  await setJobStatus(ctx, key, { status: 'download started', stageMs: limits.downloadMs });
  const node = loadNode(ctx.store);
  const status = loadStatuses(ctx.store)[key];
  if (!isActive(node) || !status) return;
  let result: DownloadResult;
  try {
    result = await withDeadline(limits.downloadMs, stop, (signal) =>
      downloadUpgrade({
        cssUrl: ctx.config.cssUrl,
        creds: credentials(node),
        status,
        dir: join(workingDirectory(ctx), ...key.split('/')),
        keys: pinnedUpgradeKeys(ctx.config.dataDir),
        signal,
      }),
    );
  } catch (err) {
    if (stop.aborted) return; // the agent stops: the stage's deadline ends the job if it does not come back
    if (isTransient(err)) await retryDownload(ctx, key, err, limits);
    else await failJob(ctx, key, err, 'download');
    return;
  }
  if (result.kind === 'none') {
    await setJobStatus(ctx, key, {
      status: 'no action required',
      errorMessage: result.reason,
      upgradedVersions: { softwareVersion: result.version },
    });
    return;
  }
  await setJobStatus(ctx, key, {
    status: 'downloaded',
    upgradedVersions: { softwareVersion: result.version },
    stageMs: limits.installMs,
  });
  ctx.events.node(
    'info',
    'node_management_upgrade_downloaded',
    `${key}: agent ${result.version} downloaded (${result.bytes} bytes, SHA-256 ${result.sha256} as the signed manifest says).`,
    nodeSource(node),
  );
  if (!host.singleExecutable) {
    const why =
      'the agent does not run as its single executable (node and a script): it cannot replace itself';
    await failJob(ctx, key, new StageFailure('failed', why), 'install');
    return;
  }
  // The journal first: whatever happens from here, the agent that starts next finds it (settle.ts).
  await setJobStatus(ctx, key, { status: 'initiated', stageMs: limits.restartMs });
  const journal = journalPath(workingDirectory(ctx));
  await writeJournal(journal, {
    key,
    executable: host.executable,
    fromVersion: host.version,
    toVersion: result.version,
    deadline: ctx.now() + limits.restartMs,
    running: await runningAgreements(ctx),
  });
  try {
    await swapIn(result.path, result.sha256, host.executable);
  } catch (err) {
    await removeJournal(journal); // the executable is as it was
    await failJob(ctx, key, err, 'swap');
    return;
  }
  host.restart(host.executable, { journal, pidFile: join(ctx.config.dataDir, PID_FILE) });
};
