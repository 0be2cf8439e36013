import { authorizeCatalogAccess, type CatalogAccess } from '#functions/catalog/shared/access';
import { type Caller, isMultiTenantAgbot, isSuperUser, roleOf } from '#lib/auth/caller';
import { notFound } from '#lib/http/errors';
import { getService, type ServiceRecord } from '#tables/service/records';
import type { ServicePath } from './schemas.ts';

type ServiceAccess = CatalogAccess;

export const resourceId = (path: ServicePath): string => `${path.organization}/${path.service}`;
export const serviceNotFound = (path: ServicePath) => notFound(`service '${resourceId(path)}' not found`);

/** Throws 403 (or the cross-org 404) unless the caller may `access` the service. */
export const authorizeServiceAccess = (
  caller: Caller,
  org: string,
  id: string,
  access: ServiceAccess,
  target: { record?: ServiceRecord | undefined; collection?: boolean },
): void => authorizeCatalogAccess(caller, { org, id, kind: 'SERVICES', label: 'service' }, access, target);

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
 * Row visibility (docs/exchange-catalog.md#service-visibility): root and multi-tenant agbots see every service; org admins, nodes and
 * agbots all of their own org; plain users their own services of their org; everyone the public
 * ones.
 */
export function canSeeService(caller: Caller, record: ServiceRecord): boolean {
  if (record.public || isSuperUser(caller) || isMultiTenantAgbot(caller)) return true;
  if (caller.org !== record.org) return false;
  if (caller.kind === 'user' && roleOf(caller) === 'User') return record.owner === caller.fullId;
  return true;
}
