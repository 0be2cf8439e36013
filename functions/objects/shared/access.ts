import { type Caller, isMultiTenantAgbot, isOrgAdmin, isSuperUser } from '#lib/auth/caller';
import { accessDenied, notFound } from '#lib/http/errors';
import { getObject, type ObjectRecord } from '#tables/object/records';
import type { ObjectPath } from './schemas.ts';

/**
 * Who may do what with objects (docs/nmp.md#the-object-store): every identity of the org reads its
 * objects (multi-tenant agbots and root: every org's); anyone reads a public object (only org IBM
 * publishes them: its agent files and manifests); org admins and root write.
 */
export const readsOrg = (caller: Caller, org: string): boolean =>
  caller.org === org || isSuperUser(caller) || isMultiTenantAgbot(caller);

export const writesOrg = (caller: Caller, org: string): boolean =>
  isSuperUser(caller) || (caller.org === org && isOrgAdmin(caller));

export const objectName = (p: ObjectPath) => `${p.organization}/${p.objectType}/${p.objectID}`;
export const objectNotFound = (p: ObjectPath) => notFound(`object '${objectName(p)}' not found`);

/** Loads the object; 404 unless it exists and the caller may read it (no 403: existence stays private). */
export async function readableObject(caller: Caller, path: ObjectPath): Promise<ObjectRecord> {
  const record = await getObject(path.organization, path.objectType, path.objectID);
  if (!record || !(readsOrg(caller, path.organization) || record.public)) throw objectNotFound(path);
  return record;
}

/** 403 unless the caller may write the org's objects. */
export function authorizeWrite(caller: Caller, org: string): void {
  if (!writesOrg(caller, org))
    throw accessDenied(`Access denied: '${caller.fullId}' may not write objects of org '${org}'`);
}
