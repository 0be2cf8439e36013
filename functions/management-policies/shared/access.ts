import { type Caller, isHubAdmin, isMultiTenantAgbot, isUserType, roleOf } from '#lib/auth/caller';
import { roleHasPermission } from '#lib/auth/permissions';
import { accessDenied, notFound } from '#lib/http/errors';
import { getManagementPolicy, type ManagementPolicyRecord } from '#tables/management-policy/records';
import type { PolicyPath } from './schemas.ts';

type PolicyAccess = 'READ' | 'WRITE' | 'CREATE';

export const policyId = (path: PolicyPath): string => `${path.organization}/${path.mgmtpolicy}`;
export const policyNotFound = (path: PolicyPath) =>
  notFound(`management policy '${policyId(path)}' not found`);

/**
 * The permission a caller needs (docs/nmp.md#who-may-do-what): in its org, reading is
 * `READ_*_MANAGEMENT_POLICY` (every user, node and agbot of the org has it), writing
 * `CREATE_`/`WRITE_*_MANAGEMENT_POLICY` (org admins and root only). Policies are never public:
 * other orgs get `*_OTHER_ORGS` (404 for reading a missing one), except multi-tenant agbots, which
 * read in every org, and hub admins, who may do nothing with them.
 */
function policyPermission(
  caller: Caller,
  org: string,
  access: PolicyAccess,
  record: ManagementPolicyRecord | undefined,
  collection: boolean,
): string | 'not-found' {
  // Hub admins hold no management policy permission in any org: they are judged as members.
  if (caller.org === org || isHubAdmin(caller) || (access === 'READ' && isMultiTenantAgbot(caller))) {
    if (access === 'CREATE') return 'CREATE_MANAGEMENT_POLICY';
    const mine = isUserType(caller) && (collection || !record || record.owner === caller.fullId);
    return `${access}_${mine ? 'MY' : 'ALL'}_MANAGEMENT_POLICY`;
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
  record: ManagementPolicyRecord | undefined,
  collection = false,
): void {
  const permission = policyPermission(caller, org, access, record, collection);
  const resource = `${org}/${name}`;
  if (permission === 'not-found') throw notFound(`resource '${resource}' not found`);
  if (!roleHasPermission(roleOf(caller), permission))
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ${permission} management policy=${resource}`,
    );
}

/** Loads the policy once and authorizes `access` to it; the record (or undefined) is the target. */
export async function authorizePolicy(
  caller: Caller,
  path: PolicyPath,
  access: PolicyAccess,
): Promise<ManagementPolicyRecord | undefined> {
  const record = await getManagementPolicy(path.organization, path.mgmtpolicy);
  authorizePolicyAccess(caller, path.organization, path.mgmtpolicy, access, record);
  return record;
}
