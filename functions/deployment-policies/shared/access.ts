import { type Caller, isHubAdmin, isMultiTenantAgbot, isUserType, roleOf } from '#lib/auth/caller';
import { roleHasPermission } from '#lib/auth/permissions';
import { accessDenied, notFound } from '#lib/http/errors';
import { type DeploymentPolicyRecord, getDeploymentPolicy } from '#tables/deployment-policy/records';
import type { PolicyPath } from './schemas.ts';

type PolicyAccess = 'READ' | 'WRITE' | 'CREATE';

export const policyId = (path: PolicyPath): string => `${path.organization}/${path.policy}`;
export const policyNotFound = (path: PolicyPath) => notFound(`business policy '${policyId(path)}' not found`);

/**
 * The permission a caller needs on a deployment policy (docs/exchange-catalog.md#catalog-authorization, #policy-routes). Policies are
 * never public: other orgs get `*_OTHER_ORGS` (404 for reading a missing one), except multi-tenant
 * agbots, which act in every org. A missing policy counts as the user's own.
 */
function policyPermission(
  caller: Caller,
  org: string,
  access: PolicyAccess,
  record: DeploymentPolicyRecord | undefined,
  collection = false,
): string | 'not-found' {
  if (caller.org === org || isMultiTenantAgbot(caller) || isHubAdmin(caller)) {
    if (access === 'CREATE') return 'CREATE_BUSINESS';
    const mine = isUserType(caller) && (collection || !record || record.owner === caller.fullId);
    return `${access}_${mine ? 'MY' : 'ALL'}_BUSINESS`;
  }
  if (access === 'READ' && !record && !collection) return 'not-found';
  return access === 'CREATE' ? 'CREATE_IN_OTHER_ORGS' : `${access}_OTHER_ORGS`;
}

/** Throws 403 (or the cross-org 404) unless the caller may `access` the policy. */
export function authorizePolicyAccess(
  caller: Caller,
  org: string,
  name: string,
  access: PolicyAccess,
  record: DeploymentPolicyRecord | undefined,
  collection = false,
): void {
  const permission = policyPermission(caller, org, access, record, collection);
  const resource = `${org}/${name}`;
  if (permission === 'not-found') throw notFound(`resource '${resource}' not found`);
  if (!roleHasPermission(roleOf(caller), permission))
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ${permission} business policy=${resource}`,
    );
}

/** Loads the policy once and authorizes `access` to it; the record (or undefined) is the target. */
export async function authorizePolicy(
  caller: Caller,
  path: PolicyPath,
  access: PolicyAccess,
): Promise<DeploymentPolicyRecord | undefined> {
  const record = await getDeploymentPolicy(path.organization, path.policy);
  authorizePolicyAccess(caller, path.organization, path.policy, access, record);
  return record;
}
