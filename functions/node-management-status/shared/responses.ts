import * as z from 'zod';

/** Response body of the node management status reads (docs/exchange.md#management-status), as view.ts builds it. */
export const agentUpgradePolicyStatus = z.object({
  scheduledTime: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  upgradedVersions: z.object({
    softwareVersion: z.string(),
    certVersion: z.string(),
    configVersion: z.string(),
  }),
  status: z.string(),
  errorMessage: z.string(),
  lastUpdated: z.string(),
});

/** Keyed by `<org>/<management policy>`; lastIndex is always 0. */
export const getManagementStatusResponse = z.object({
  managementStatus: z.record(z.string(), z.object({ agentUpgradePolicyStatus })),
  lastIndex: z.number().int(),
});
