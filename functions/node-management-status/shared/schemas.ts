import * as z from 'zod';
import { idSegment } from '#lib/ids';

/** Request schemas of /v1/orgs/{organization}/nodes/{node}/managementStatus (docs/exchange.md#management-status). */

export const nodeStatusesPath = z.object({ organization: idSegment, node: idSegment });
export const nodeStatusPath = nodeStatusesPath.extend({ mgmtpolicy: idSegment });
export type NodeStatusPath = z.infer<typeof nodeStatusPath>;

/** Strings are bounded so one status stays a small item. */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const version = text(256).nullish();

/** PUT: `agentUpgradePolicyStatus` with a `scheduledTime`; the rest optional (null = absent). */
export const putManagementStatusBody = z.strictObject({
  agentUpgradePolicyStatus: z.strictObject({
    scheduledTime: text(64),
    startTime: text(64).nullish(),
    endTime: text(64).nullish(),
    upgradedVersions: z
      .strictObject({ softwareVersion: version, certVersion: version, configVersion: version })
      .nullish(),
    status: text(64).nullish(),
    errorMessage: text(4096).nullish(),
  }),
});
export type PutManagementStatusBody = z.infer<typeof putManagementStatusBody>;

/** GET: upstream documents an `attribute` parameter and ignores it; so do we. */
export const getManagementStatusQuery = z.object({ attribute: z.string().optional() });
