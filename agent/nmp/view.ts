import type { NmpStatus, NmpStatuses } from './store.ts';

/** One status as the local API shows it, built from upstream's fields (never the stored object). */
function statusView({ agentUpgradePolicyStatus: p, agentUpgradeInternal: i }: NmpStatus) {
  const v = p.upgradedVersions;
  return {
    agentUpgradePolicyStatus: {
      scheduledTime: p.scheduledTime,
      ...(p.startTime ? { startTime: p.startTime } : {}),
      ...(p.endTime ? { endTime: p.endTime } : {}),
      upgradedVersions: {
        softwareVersion: v.softwareVersion,
        certVersion: v.certVersion,
        configVersion: v.configVersion,
      },
      status: p.status,
      ...(p.errorMessage ? { errorMessage: p.errorMessage } : {}),
      ...(p.workingDirectory ? { workingDirectory: p.workingDirectory } : {}),
    },
    agentUpgradeInternal: {
      allowDowngrade: i.allowDowngrade,
      manifest: i.manifest,
      scheduledUnixTime: i.scheduledUnixTime,
      latestMap: {
        softwareLatest: i.latestMap.softwareLatest,
        configLatest: i.latestMap.configLatest,
        certLatest: i.latestMap.certLatest,
      },
      downloadAttempts: i.downloadAttempts,
    },
  };
}

/** A map of statuses by `<org>/<nmp>` key, each shown through statusView. */
export const statusesView = (statuses: NmpStatuses) =>
  Object.fromEntries(Object.entries(statuses).map(([key, status]) => [key, statusView(status)]));
