import { authorize } from '#lib/auth/access';
import { type Caller, IBM_ORG } from '#lib/auth/caller';
import { badInput } from '#lib/http/errors';

/**
 * Agent file versions belong to the hub: access is always checked against org IBM, whatever the
 * path says, and only then is a path org other than IBM refused (upstream's order).
 */
export function authorizeAgentConfig(
  caller: Caller,
  organization: string,
  access: 'READ_AGENT_CONFIG_MGMT' | 'WRITE_AGENT_CONFIG_MGMT',
): void {
  authorize(caller, { type: 'org', org: IBM_ORG }, access);
  if (organization !== IBM_ORG) throw badInput(`invalid input: ${organization}`);
}
