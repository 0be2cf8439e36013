import {
  type Caller,
  IBM_ORG,
  isHubAdmin,
  isMultiTenantAgbot,
  isSuperUser,
  isUserType,
  roleOf,
} from '#lib/auth/caller';
import { roleHasPermission } from '#lib/auth/permissions';
import { accessDenied, notFound } from '#lib/http/errors';
import { getService, type ServiceRecord } from '#tables/service-records';
import type { ServicePath } from './schemas.ts';

export type ServiceAccess = 'READ' | 'WRITE' | 'CREATE';

export const resourceId = (path: ServicePath): string => `${path.organization}/${path.service}`;
export const serviceNotFound = (path: ServicePath) => notFound(`service '${resourceId(path)}' not found`);

/**
 * The permission a caller needs on a service (catalog reference §1.1). A public service counts as
 * the caller's own org for READ only: upstream also lets another org's admin rewrite a public
 * service, which we refuse (docs/compatibility.md). `record` undefined = missing (a missing target
 * counts as the user's own); `collection` = the org's list (always public for READ).
 */
export function servicePermission(
  caller: Caller,
  org: string,
  access: ServiceAccess,
  target: { record?: ServiceRecord | undefined; collection?: boolean },
): string | 'not-found' {
  const visible = access === 'READ' && (target.collection === true || target.record?.public === true);
  const nodeReadsIbm = caller.kind === 'node' && access === 'READ' && org === IBM_ORG;
  const sameOrg = caller.org === org || visible || isMultiTenantAgbot(caller) || nodeReadsIbm;
  if (sameOrg || isHubAdmin(caller)) {
    if (access === 'CREATE') return 'CREATE_SERVICES';
    const mine = isUserType(caller) && (!target.record || target.record.owner === caller.fullId);
    return `${access}_${mine ? 'MY' : 'ALL'}_SERVICES`;
  }
  if (access === 'READ' && !target.record && !target.collection) return 'not-found';
  return access === 'CREATE' ? 'CREATE_IN_OTHER_ORGS' : `${access}_OTHER_ORGS`;
}

/** Throws 403 (or the cross-org 404) unless the caller may `access` the service. */
export function authorizeServiceAccess(
  caller: Caller,
  org: string,
  id: string,
  access: ServiceAccess,
  target: { record?: ServiceRecord | undefined; collection?: boolean },
): void {
  const permission = servicePermission(caller, org, access, target);
  const resource = `${org}/${id}`;
  if (permission === 'not-found') throw notFound(`resource '${resource}' not found`);
  if (!roleHasPermission(roleOf(caller), permission))
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ${permission} service=${resource}`,
    );
}

/** Loads the service once and authorizes `access` to it; the record (or undefined) is the target. */
export async function authorizeService(
  caller: Caller,
  path: ServicePath,
  access: ServiceAccess,
): Promise<ServiceRecord | undefined> {
  const record = await getService(path.organization, path.service);
  authorizeServiceAccess(caller, path.organization, path.service, access, { record });
  return record;
}

/**
 * Row visibility (§2.5): root and multi-tenant agbots see every service; org admins, nodes and
 * agbots all of their own org; plain users their own services of their org; everyone the public
 * ones.
 */
export function canSeeService(caller: Caller, record: ServiceRecord): boolean {
  if (record.public || isSuperUser(caller) || isMultiTenantAgbot(caller)) return true;
  if (caller.org !== record.org) return false;
  if (caller.kind === 'user' && roleOf(caller) === 'User') return record.owner === caller.fullId;
  return true;
}
