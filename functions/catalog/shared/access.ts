import { type Caller, IBM_ORG, isHubAdmin, isMultiTenantAgbot, isUserType, roleOf } from '#lib/auth/caller';
import { roleHasPermission } from '#lib/auth/permissions';
import { accessDenied, notFound } from '#lib/http/errors';

export type CatalogAccess = 'READ' | 'WRITE' | 'CREATE';

/** What the rule needs of a service or pattern (undefined = missing). */
interface CatalogTarget {
  record?: { owner: string; public: boolean } | undefined;
  /** The org's list (always public for READ). */
  collection?: boolean;
}

/**
 * The permission a caller needs on a service or pattern (docs/exchange-catalog.md#catalog-authorization), one rule for
 * both: a public record (and the org's list) counts as the caller's own org for READ only
 * (upstream also lets another org's admin rewrite a public one, which we refuse:
 * docs/compatibility.md); multi-tenant agbots act in every org; nodes read org IBM; a missing
 * record counts as the user's own.
 */
function catalogPermission(
  caller: Caller,
  org: string,
  access: CatalogAccess,
  kind: 'SERVICES' | 'PATTERNS',
  target: CatalogTarget,
): string | 'not-found' {
  const visible = access === 'READ' && (target.collection === true || target.record?.public === true);
  const nodeReadsIbm = caller.kind === 'node' && access === 'READ' && org === IBM_ORG;
  const sameOrg = caller.org === org || visible || isMultiTenantAgbot(caller) || nodeReadsIbm;
  if (sameOrg || isHubAdmin(caller)) {
    if (access === 'CREATE') return `CREATE_${kind}`;
    const mine = isUserType(caller) && (!target.record || target.record.owner === caller.fullId);
    return `${access}_${mine ? 'MY' : 'ALL'}_${kind}`;
  }
  if (access === 'READ' && !target.record && !target.collection) return 'not-found';
  return access === 'CREATE' ? 'CREATE_IN_OTHER_ORGS' : `${access}_OTHER_ORGS`;
}

/** Throws 403 (or the cross-org 404) unless the caller may `access` the record; `label` names it in the 403. */
export function authorizeCatalogAccess(
  caller: Caller,
  resource: { org: string; id: string; kind: 'SERVICES' | 'PATTERNS'; label: string },
  access: CatalogAccess,
  target: CatalogTarget,
): void {
  const permission = catalogPermission(caller, resource.org, access, resource.kind, target);
  const id = `${resource.org}/${resource.id}`;
  if (permission === 'not-found') throw notFound(`resource '${id}' not found`);
  if (!roleHasPermission(roleOf(caller), permission))
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ${permission} ${resource.label}=${id}`,
    );
}
