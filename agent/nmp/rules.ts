import type { NmpStatus, NmpStatuses, UpgradePolicyStatus } from './store.ts';

/** Status values upstream's agent uses. */
export const NMP_STATUS_VALUES = [
  'waiting',
  'unknown',
  'download started',
  'downloaded',
  'download failed',
  'successful',
  'no action required',
  'failed',
  'precheck failed',
  'initiated',
  'rollback started',
  'rollback failed',
  'rollback successful',
  'ha node waiting',
  'reset',
] as const;

export interface StatusChange {
  status?: string;
  startTime?: string;
  endTime?: string;
  errorMessage?: string;
}

/** RFC 3339 in UTC, whole seconds. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const unset = (time: string | undefined) => !time || time === '0';

/**
 * The rules for PUT /nodemanagement/status (docs/agent.md#node-management): nothing changes unless the status does;
 * then startTime is set only when unset and the status becomes `initiated`, endTime only when
 * unset and it becomes `successful` (the given time, else now), and the error message is replaced
 * (empty clears it). Back to `waiting` clears both times. Undefined: nothing to change.
 */
export function applyChange(stored: NmpStatus, change: StatusChange, nowMs: number): NmpStatus | undefined {
  const current = stored.agentUpgradePolicyStatus;
  if (change.status === undefined || change.status === current.status) return undefined;
  const next: UpgradePolicyStatus = { ...current, status: change.status };
  if (change.status === 'initiated' && unset(current.startTime))
    next.startTime = change.startTime || rfc3339(nowMs);
  if (change.status === 'successful' && unset(current.endTime))
    next.endTime = change.endTime || rfc3339(nowMs);
  if (change.errorMessage) next.errorMessage = change.errorMessage;
  else delete next.errorMessage;
  const internal = { ...stored.agentUpgradeInternal };
  if (change.status === 'waiting') {
    delete next.startTime;
    delete next.endTime;
    internal.downloadAttempts = 0;
  }
  return { agentUpgradePolicyStatus: next, agentUpgradeInternal: internal };
}

/**
 * GET /nodemanagement/nextjob: among all statuses (`ready` undefined), the `downloaded` ones
 * (true) or the `waiting` ones (false), the one scheduled earliest; `{}` when there is none.
 * Statuses without a readable scheduled time are skipped.
 */
export function nextJob(statuses: NmpStatuses, ready: boolean | undefined): NmpStatuses {
  let best: [string, NmpStatus, number] | undefined;
  for (const [key, status] of Object.entries(statuses)) {
    const s = status.agentUpgradePolicyStatus;
    if (ready === true && s.status !== 'downloaded') continue;
    if (ready === false && s.status !== 'waiting') continue;
    const at = Date.parse(s.scheduledTime);
    if (Number.isNaN(at)) continue;
    if (!best || at < best[2]) best = [key, status, at];
  }
  return best ? { [best[0]]: best[1] } : {};
}
