import { type Caller, isMultiTenantAgbot, roleOf } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';
import type { PostPolicyBody } from './schemas.ts';

/**
 * Upstream's rule for adding a served policy (reference §8.10, tested there): users, org admins
 * and agbots other than multi-tenant ones may only serve their own org's policies, to nodes of
 * that org. Root and hub admins may serve any.
 */
export function checkPolicyOrgs(caller: Caller, body: PostPolicyBody): void {
  const role = roleOf(caller);
  if (role === 'SuperUser' || role === 'HubAdmin' || isMultiTenantAgbot(caller)) return;
  const nodeOrg = body.nodeOrgid ?? body.businessPolOrgid;
  if (body.businessPolOrgid === caller.org && nodeOrg === body.businessPolOrgid) return;
  throw accessDenied(
    `Access denied: '${caller.fullId}' may only serve deployment policies of org '${caller.org}' to nodes of that org`,
  );
}
