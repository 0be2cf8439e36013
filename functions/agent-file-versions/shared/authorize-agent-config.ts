import { authorize } from '#lib/auth/access';
import { type Caller, IBM_ORG, isHubAdmin, isMultiTenantAgbot, isSuperUser } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';

type AgentConfigAccess = 'READ_AGENT_CONFIG_MGMT' | 'WRITE_AGENT_CONFIG_MGMT';

/**
 * Whether the caller may act on `org`'s agent file versions at all: its own org; every org for
 * root, hub admins and multi-tenant agbots (org IBM); and IBM's lists, the hub's defaults, are
 * readable by anyone, as upstream's only lists were.
 */
function reachesOrg(caller: Caller, org: string, access: AgentConfigAccess): boolean {
  if (caller.org === org || isSuperUser(caller) || isHubAdmin(caller) || isMultiTenantAgbot(caller))
    return true;
  return org === IBM_ORG && access === 'READ_AGENT_CONFIG_MGMT';
}

/**
 * Agent file versions are kept per org (docs/compatibility.md#administration; upstream: IBM only, authorized against IBM
 * whatever the path says). Outside the orgs it reaches, a caller gets 403; inside, its role must
 * hold the permission: every role reads, agbots, org admins, hub admins and root write.
 */
export function authorizeAgentConfig(caller: Caller, org: string, access: AgentConfigAccess): void {
  if (!reachesOrg(caller, org, access)) {
    throw accessDenied(`Access denied: '${caller.fullId}' does not have authorization: ${access} org=${org}`);
  }
  authorize(caller, { type: 'org', org }, access);
}
