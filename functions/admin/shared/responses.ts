import * as z from 'zod';

/** Response bodies of the administration endpoints (docs/exchange.md#record-shapes, #administration, #org-status). */
const int = z.number().int();

/** Figures a caller may not see are -1; the registered/unregistered pair is left out for hub admins. */
export const adminStatus = z.object({
  dbSchemaVersion: int.optional().describe('GET /v1/admin/status only: 62 for root and hub admins, else -1'),
  SchemaVersion: int.optional().describe('GET /v1/orgs/{organization}/status only'),
  msg: z.string(),
  numberOfAgbotAgreements: int,
  numberOfAgbotMsgs: int,
  numberOfAgbots: int,
  numberOfNodeAgreements: int,
  numberOfNodeMsgs: int,
  numberOfNodes: int,
  numberOfOrganizations: int,
  numberOfRegisteredNodes: int.optional(),
  numberOfUnregisteredNodes: int.optional(),
  numberOfUsers: int,
});

export const adminOrgStatus = z.object({
  msg: z.string(),
  nodes: z.record(z.string(), int).describe('nodes per org id (-1 for a hub admin)'),
});

export const dropTokenResponse = z.object({
  token: z.string().describe('one-time password of root/root for POST /v1/admin/dropdb, valid 10 minutes'),
});
