import { applyChange, rfc3339, type StatusChange } from '../nmp/rules.ts';
import type { NmpStatus } from '../nmp/store.ts';
import type { AgentContext } from '../runtime/context.ts';
import { writeStatuses } from '../sync/management.ts';

export interface JobChange extends StatusChange {
  upgradedVersions?: Partial<NmpStatus['agentUpgradePolicyStatus']['upgradedVersions']>;
  /** How long the stage this status begins may take; none: the job is not under way. */
  stageMs?: number;
}

/**
 * A job's status moves (written through to the Exchange, nmp/rules.ts's rules for times). Unlike
 * upstream, a change of the error message alone is kept too.
 */
export async function setJobStatus(ctx: AgentContext, key: string, change: JobChange): Promise<void> {
  await writeStatuses(ctx, (current) => {
    const stored = current[key];
    if (!stored) return {};
    const now = ctx.now();
    const next = applyChange(stored, change, now) ?? structuredClone(stored);
    const s = next.agentUpgradePolicyStatus;
    if (change.errorMessage) s.errorMessage = change.errorMessage;
    if (change.upgradedVersions) s.upgradedVersions = { ...s.upgradedVersions, ...change.upgradedVersions };
    const internal = next.agentUpgradeInternal;
    if (change.stageMs === undefined) delete internal.stageDeadline;
    else internal.stageDeadline = now + change.stageMs;
    return { [key]: next };
  });
}

/** A job back to `waiting` until `at` (a retry), keeping its count of download attempts. */
export async function retryJob(
  ctx: AgentContext,
  key: string,
  retry: { errorMessage: string; at: number; attempts: number },
): Promise<void> {
  await writeStatuses(ctx, (current) => {
    const stored = current[key];
    if (!stored) return {};
    const next = applyChange(stored, { status: 'waiting', errorMessage: retry.errorMessage }, ctx.now());
    if (!next) return {};
    next.agentUpgradePolicyStatus.scheduledTime = rfc3339(retry.at);
    next.agentUpgradeInternal.scheduledUnixTime = String(Math.floor(retry.at / 1000));
    next.agentUpgradeInternal.downloadAttempts = retry.attempts;
    delete next.agentUpgradeInternal.stageDeadline;
    return { [key]: next };
  });
}
