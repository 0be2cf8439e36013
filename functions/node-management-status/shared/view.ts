import type * as z from 'zod';
import type { NodeManagementStatusRecord } from '#tables/node/management-status-records';
import type { getManagementStatusResponse } from './responses.ts';
import type { NodeStatusPath, PutManagementStatusBody } from './schemas.ts';

/** `<org>/<policy>`: the key of a status (the policy lives in the node's org). */
export const policyKey = (path: { organization: string; mgmtpolicy: string }) =>
  `${path.organization}/${path.mgmtpolicy}`;

/** The record a PUT stores (absent values as ""). */
export function storedStatus(
  path: NodeStatusPath,
  body: PutManagementStatusBody,
  lastUpdated: string,
): NodeManagementStatusRecord {
  const given = body.agentUpgradePolicyStatus;
  const versions = given.upgradedVersions;
  return {
    org: path.organization,
    id: path.node,
    policy: policyKey(path),
    scheduledTime: given.scheduledTime,
    startTime: given.startTime ?? '',
    endTime: given.endTime ?? '',
    upgradedVersions: {
      softwareVersion: versions?.softwareVersion ?? '',
      certVersion: versions?.certVersion ?? '',
      configVersion: versions?.configVersion ?? '',
    },
    status: given.status ?? '',
    errorMessage: given.errorMessage ?? '',
    lastUpdated,
  };
}

/** `{"managementStatus": {"<org/policy>": {"agentUpgradePolicyStatus": {...}}}, "lastIndex": 0}` */
export function statusesView(
  records: NodeManagementStatusRecord[],
): z.infer<typeof getManagementStatusResponse> {
  const managementStatus = Object.fromEntries(
    records.map((r) => [
      r.policy,
      {
        agentUpgradePolicyStatus: {
          scheduledTime: r.scheduledTime,
          startTime: r.startTime,
          endTime: r.endTime,
          upgradedVersions: {
            softwareVersion: r.upgradedVersions.softwareVersion,
            certVersion: r.upgradedVersions.certVersion,
            configVersion: r.upgradedVersions.configVersion,
          },
          status: r.status,
          errorMessage: r.errorMessage,
          lastUpdated: r.lastUpdated,
        },
      },
    ]),
  );
  return { managementStatus, lastIndex: 0 };
}
