import { loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { setJobStatus } from './status.ts';
import type { JobRunner } from './worker.ts';

/** A stage that refuses (bad manifest, hash, signature...): the job ends with this status and message. */
export class StageFailure extends Error {
  constructor(
    readonly status: 'failed' | 'precheck failed' | 'download failed',
    message: string,
  ) {
    super(message);
  }
}

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
            : new StageFailure('failed', `the stage did not finish within ${Math.round(ms / 1000)} s`),
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
 * One job: `download started` → (download and verify, not built yet) → the job ends `failed`
 * with a message saying so. Later layers add the download, the swap and the restart.
 */
export const runUpgradeJob: JobRunner = async (ctx, key, limits, stop) => {
  await setJobStatus(ctx, key, { status: 'download started', stageMs: limits.downloadMs });
  try {
    await withDeadline(limits.downloadMs, stop, async () => {
      throw new StageFailure('failed', 'this agent cannot download agent files yet');
    });
  } catch (err) {
    if (stop.aborted) return; // the agent stops: the stage's deadline ends the job if it does not come back
    await failJob(ctx, key, err, 'download');
  }
};
