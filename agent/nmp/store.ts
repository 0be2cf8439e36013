import { ownTable } from '../ground/own.ts';
import type { Store } from '../store/store.ts';

/** The job status the API shows and updates (empty optional values are left out). */
export interface UpgradePolicyStatus {
  scheduledTime: string;
  startTime?: string;
  endTime?: string;
  upgradedVersions: { softwareVersion: string; certVersion: string; configVersion: string };
  status: string;
  errorMessage?: string;
  workingDirectory?: string;
}

/** One node management status, keyed `<org>/<nmp name>`; the internal part never leaves the node. */
export interface NmpStatus {
  agentUpgradePolicyStatus: UpgradePolicyStatus;
  agentUpgradeInternal: {
    allowDowngrade: boolean;
    manifest: string;
    scheduledUnixTime: string;
    latestMap: { softwareLatest: boolean; configLatest: boolean; certLatest: boolean };
    downloadAttempts: number;
    /** The policy's `lastUpdated` this status follows (a waiting status is rescheduled when it moves). */
    nmpLastUpdated?: string;
    /** When the current stage of an active job must have finished (ms since the epoch). */
    stageDeadline?: number;
  };
}

export type NmpStatuses = Record<string, NmpStatus>;

export const NMP_KEYS = {
  statuses: 'nmp.statuses',
  /** `lastUpdated` of each Exchange status last compared with the local one. */
  seen: 'sync.nmp.lastUpdated',
  /** Keys changed locally and not yet written to the Exchange. */
  dirty: 'nmp.dirty',
} as const;

/** Keyed by names from the Exchange and the caller: null-prototype tables (own.ts). */
export const loadStatuses = (store: Store): NmpStatuses =>
  ownTable(store.get<NmpStatuses>(NMP_KEYS.statuses));
export const saveStatuses = (store: Store, statuses: NmpStatuses) => store.set(NMP_KEYS.statuses, statuses);
export const loadSeen = (store: Store): Record<string, string> =>
  ownTable(store.get<Record<string, string>>(NMP_KEYS.seen));
export const saveSeen = (store: Store, seen: Record<string, string>) => store.set(NMP_KEYS.seen, seen);
export const loadDirty = (store: Store): string[] => store.get<string[]>(NMP_KEYS.dirty) ?? [];
export const saveDirty = (store: Store, keys: string[]) => store.set(NMP_KEYS.dirty, [...new Set(keys)]);
