import { randomInt } from 'node:crypto';
import { type NmpScope, type NodePolicyDoc, nmpApplies } from '#lib/nmp/applies';
import { parseNmpTimestamp } from '#lib/nmp/timestamp';
import type { ExchangeNmp } from '../exchange/types.ts';
import { rfc3339 } from '../nmp/rules.ts';
import type { NmpStatus, NmpStatuses } from '../nmp/store.ts';

/** Statuses whose job is under way: never replaced or removed by a policy change, only ended by their stage deadline. */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set([
  'download started',
  'downloaded',
  'initiated',
  'rollback started',
]);

/** A random whole number of seconds in [0, window) (crypto, as upstream's agent). */
export type WindowDraw = (windowSeconds: number) => number;
export const drawInWindow: WindowDraw = (windowSeconds) =>
  windowSeconds > 0 ? randomInt(0, windowSeconds) : 0;

/**
 * When a policy's job starts (upstream's SetScheduledStartTime, open-horizon/anax
 * `exchangecommon/node_management_status.go`): `start`, or for `"now"` the policy's `lastUpdated`
 * (our own clock when unreadable), plus a random offset inside `startWindow`.
 */
export function scheduledTime(nmp: ExchangeNmp, nowMs: number, draw: WindowDraw = drawInWindow): number {
  const start = nmp.start ?? 'now';
  let base = start === 'now' ? parseNmpTimestamp(nmp.lastUpdated ?? '') : Date.parse(start);
  if (Number.isNaN(base)) base = nowMs;
  const window = Math.max(0, Math.floor(nmp.startWindow ?? 0));
  return base + draw(window) * 1000;
}

/** A new `waiting` status for a policy (upstream's StatusFromNewPolicy), remembering which edit of the policy it follows. */
export function newStatus(
  nmp: ExchangeNmp,
  nowMs: number,
  workingDirectory: string,
  draw?: WindowDraw,
): NmpStatus {
  const at = scheduledTime(nmp, nowMs, draw);
  return {
    agentUpgradePolicyStatus: {
      scheduledTime: rfc3339(at),
      upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
      status: 'waiting',
      workingDirectory,
    },
    agentUpgradeInternal: {
      allowDowngrade: nmp.agentUpgradePolicy?.allowDowngrade === true,
      manifest: nmp.agentUpgradePolicy?.manifest ?? '',
      scheduledUnixTime: String(Math.floor(at / 1000)),
      latestMap: { softwareLatest: false, configLatest: false, certLatest: false },
      downloadAttempts: 0,
      nmpLastUpdated: nmp.lastUpdated ?? '',
    },
  };
}

export interface NodeScope {
  org: string;
  pattern: string;
  policy: NodePolicyDoc | undefined;
}

export interface Plan {
  /** Statuses to write (new, or a waiting one following an edited policy). */
  write: NmpStatuses;
  /** Keys of statuses to delete locally and in the Exchange. */
  remove: string[];
}

/**
 * What the node's statuses should become for its org's policies (upstream's agent, docs/nmp.md
 * "The agent's upgrade"): an enabled policy that applies (lib/nmp/applies.ts) gets a `waiting`
 * status when it has none; a status whose policy is disabled or no longer applies is removed. Unlike upstream, a `waiting` status follows an edit of its policy (manifest,
 * allowDowngrade, schedule), and a job under way is left to finish.
 */
export function planStatuses(
  nmps: Record<string, ExchangeNmp>,
  node: NodeScope,
  statuses: NmpStatuses,
  nowMs: number,
  workingDirectory: string,
  draw?: WindowDraw,
): Plan {
  const write: NmpStatuses = {};
  const remove: string[] = [];
  for (const [key, nmp] of Object.entries(nmps)) {
    if (!key.startsWith(`${node.org}/`) || !nmp.enabled || !applies(nmp, node)) continue;
    const current = statuses[key];
    const edited =
      current?.agentUpgradePolicyStatus.status === 'waiting' &&
      (current.agentUpgradeInternal.nmpLastUpdated ?? '') !== (nmp.lastUpdated ?? '');
    if (!current || edited) write[key] = newStatus(nmp, nowMs, workingDirectory, draw);
  }
  for (const [key, status] of Object.entries(statuses)) {
    if (!key.startsWith(`${node.org}/`) || ACTIVE_STATUSES.has(status.agentUpgradePolicyStatus.status))
      continue;
    // A policy gone from the Exchange takes its statuses with it there (the Exchange's cascade).
    const nmp = Object.hasOwn(nmps, key) ? nmps[key] : undefined;
    if (nmp && (!nmp.enabled || !applies(nmp, node))) remove.push(key);
  }
  return { write, remove };
}

const applies = (nmp: ExchangeNmp, node: NodeScope) => nmpApplies(nmp as NmpScope, node.pattern, node.policy);

/** A job this agent scheduled from a policy it read (a status only seen in the Exchange is never run). */
export const scheduledHere = (status: NmpStatus) => status.agentUpgradeInternal.nmpLastUpdated !== undefined;
