/**
 * Version fallback (docs/agbot.md "Version fallback"): which of a deployment policy's service
 * versions to offer a node, given what the node did with the versions it was given before.
 *
 * Each `serviceVersions` entry may carry `priority: {priority_value, retries, retry_durations,
 * verified_durations}`. A version whose workload failed on the node `retries` times within the
 * last `retry_durations` seconds is abandoned for the next one by priority; a run that lasted
 * `verified_durations` seconds proves the version on that node, and only failures after it
 * count. When every version is abandoned the lowest-priority one is kept, as upstream does
 * (open-horizon/anax `policy/policy_file.go`, `NextHighestPriorityWorkload`).
 *
 * Upstream keeps a retry counter per node and policy ("workload usage" records); this derives
 * the same answer from the node's ended agreements the agbot keeps, so there is no counter to get
 * wrong after a crash (docs/compatibility.md).
 */
import type { EndedAgreement } from '#lib/agbot-store/contract';
import { byPriority, type ServiceVersion } from '#lib/protocol/catalog-records';
import { isWorkloadFailure } from '#lib/protocol/reason-codes';

type VersionEntry = Pick<ServiceVersion, 'version' | 'priority'>;

/** One agreement the node had under the policy (times in ms). */
export type Attempt = EndedAgreement;

export interface Abandoned {
  version: string;
  failures: number;
  retries: number;
  withinS: number;
}

export interface Preference {
  /** The versions to try in this order (never empty when the policy has versions). */
  versions: string[];
  /** The versions passed over because they failed too often, highest priority first. */
  abandoned: Abandoned[];
}

/** The versions to offer, best first, and the ones abandoned on the way. */
export function preferVersions(
  entries: readonly VersionEntry[],
  attempts: readonly Attempt[],
  nowMs: number,
): Preference {
  const ordered = byPriority(entries);
  const abandoned: Abandoned[] = [];
  const kept: string[] = [];
  for (const entry of ordered) {
    const verdict = failuresOf(entry, attempts, nowMs);
    if (verdict) abandoned.push(verdict);
    else kept.push(entry.version);
  }
  const last = ordered.at(-1);
  if (kept.length === 0 && last) kept.push(last.version);
  return { versions: kept, abandoned };
}

/** The abandonment of one version, or undefined while it still has retries left. */
function failuresOf(entry: VersionEntry, attempts: readonly Attempt[], nowMs: number): Abandoned | undefined {
  const retries = entry.priority?.retries ?? 0;
  const withinS = entry.priority?.retry_durations ?? 0;
  // A version without retry settings is never abandoned (upstream: an "empty" priority).
  if (retries <= 0 || withinS <= 0) return undefined;
  const mine = attempts.filter((a) => a.version === entry.version);
  const provenAt = lastProven(mine, entry.priority?.verified_durations ?? 0, nowMs);
  const windowStart = Math.max(nowMs - withinS * 1000, provenAt);
  const failures = mine.filter(
    (a) => a.endedAt !== undefined && a.endedAt >= windowStart && isWorkloadFailure(a.reason),
  ).length;
  return failures >= retries ? { version: entry.version, failures, retries, withinS } : undefined;
}

/** When the version last completed a verified run on the node (ms), else 0. */
function lastProven(attempts: readonly Attempt[], verifiedS: number, nowMs: number): number {
  if (verifiedS <= 0) return 0;
  let proven = 0;
  for (const a of attempts) {
    if (a.agreedAt === undefined) continue;
    const provenAt = a.agreedAt + verifiedS * 1000;
    if (provenAt <= (a.endedAt ?? nowMs)) proven = Math.max(proven, provenAt);
  }
  return proven;
}

/** Whether any version can be abandoned at all (else the history need not be read). */
export const hasRetrySettings = (entries: readonly VersionEntry[]): boolean =>
  entries.length > 1 &&
  entries.some((e) => (e.priority?.retries ?? 0) > 0 && (e.priority?.retry_durations ?? 0) > 0);
