import type { NodeOrgFilter } from '#lib/agbot-store/policy-status';
import { type Caller, isHubAdmin, isSuperUser } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';

/**
 * Who reads the in-stack agbot's status of an org's policies (docs/compatibility.md): users of
 * the org, hub admins and root; nodes, agbots and users of other orgs get 403.
 */
export function authorizeStatusReader(caller: Caller, org: string): void {
  if (seesEveryNode(caller)) return;
  if (caller.kind === 'user' && caller.org === org) return;
  throw accessDenied(`Access denied: '${caller.fullId}' may not read the agbot status of org '${org}'`);
}

const seesEveryNode = (caller: Caller) => isSuperUser(caller) || isHubAdmin(caller);

/**
 * The node orgs whose node names the caller may see: root and hub admins every one, a user only
 * their own org's (a policy may serve nodes of other orgs; their names and reasons stay hidden).
 */
export const visibleNodeOrgs = (caller: Caller): NodeOrgFilter =>
  seesEveryNode(caller) ? undefined : (nodeOrg: string) => nodeOrg === caller.org;
