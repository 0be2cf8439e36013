import type { ExchangeManagementStatus } from '../exchange/types.ts';
import type { NmpStatus } from './store.ts';

const orUndefined = (value: string | undefined) => (value ? value : undefined);

/** Drops undefined fields, so equal statuses compare (and store) equal. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * A status from the Exchange as kept locally: the Exchange's fields win, the local working
 * directory and internal state stay (a new status gets upstream's defaults and `waiting`).
 */
export function fromExchange(
  remote: ExchangeManagementStatus,
  local: NmpStatus | undefined,
  workingDirectory: string,
): NmpStatus {
  const r = remote.agentUpgradePolicyStatus;
  const versions = r.upgradedVersions ?? {};
  return {
    agentUpgradePolicyStatus: compact({
      scheduledTime: r.scheduledTime ?? '',
      startTime: orUndefined(r.startTime),
      endTime: orUndefined(r.endTime),
      upgradedVersions: {
        softwareVersion: versions.softwareVersion ?? '',
        certVersion: versions.certVersion ?? '',
        configVersion: versions.configVersion ?? '',
      },
      status: r.status || 'waiting',
      errorMessage: orUndefined(r.errorMessage),
      workingDirectory: local?.agentUpgradePolicyStatus.workingDirectory ?? workingDirectory,
    }),
    agentUpgradeInternal: local?.agentUpgradeInternal ?? {
      allowDowngrade: false,
      manifest: '',
      scheduledUnixTime: r.scheduledTime ?? '',
      latestMap: { softwareLatest: false, configLatest: false, certLatest: false },
      downloadAttempts: 0,
    },
  };
}

/** What the Exchange stores: the job status without the local working directory. */
export function toExchange(status: NmpStatus): ExchangeManagementStatus {
  const { workingDirectory: _local, ...shared } = status.agentUpgradePolicyStatus;
  return { agentUpgradePolicyStatus: shared };
}
