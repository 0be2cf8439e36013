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
import { getPattern, type PatternRecord } from '#tables/pattern-records';
import type { PatternPath } from './schemas.ts';

export type PatternAccess = 'READ' | 'WRITE' | 'CREATE';

export const patternId = (path: PatternPath): string => `${path.organization}/${path.pattern}`;
export const patternNotFound = (path: PatternPath) => notFound(`pattern '${patternId(path)}' not found`);

/**
 * The permission a caller needs on a pattern (catalog reference §1.1). A public pattern (and the
 * org's list) counts as the caller's own org for READ only: upstream also lets another org's admin
 * rewrite a public pattern, which we refuse, as for services (docs/compatibility.md). A missing
 * pattern counts as the user's own.
 */
export function patternPermission(
  caller: Caller,
  org: string,
  access: PatternAccess,
  target: { record?: PatternRecord | undefined; collection?: boolean },
): string | 'not-found' {
  const visible = access === 'READ' && (target.collection === true || target.record?.public === true);
  const nodeReadsIbm = caller.kind === 'node' && access === 'READ' && org === IBM_ORG;
  const sameOrg = caller.org === org || visible || isMultiTenantAgbot(caller) || nodeReadsIbm;
  if (sameOrg || isHubAdmin(caller)) {
    if (access === 'CREATE') return 'CREATE_PATTERNS';
    const mine = isUserType(caller) && (!target.record || target.record.owner === caller.fullId);
    return `${access}_${mine ? 'MY' : 'ALL'}_PATTERNS`;
  }
  if (access === 'READ' && !target.record && !target.collection) return 'not-found';
  return access === 'CREATE' ? 'CREATE_IN_OTHER_ORGS' : `${access}_OTHER_ORGS`;
}

/** Throws 403 (or the cross-org 404) unless the caller may `access` the pattern. */
export function authorizePatternAccess(
  caller: Caller,
  org: string,
  name: string,
  access: PatternAccess,
  target: { record?: PatternRecord | undefined; collection?: boolean },
): void {
  const permission = patternPermission(caller, org, access, target);
  const resource = `${org}/${name}`;
  if (permission === 'not-found') throw notFound(`resource '${resource}' not found`);
  if (!roleHasPermission(roleOf(caller), permission))
    throw accessDenied(
      `Access denied: '${caller.fullId}' does not have authorization: ${permission} pattern=${resource}`,
    );
}

/** Loads the pattern once and authorizes `access` to it; the record (or undefined) is the target. */
export async function authorizePattern(
  caller: Caller,
  path: PatternPath,
  access: PatternAccess,
): Promise<PatternRecord | undefined> {
  const record = await getPattern(path.organization, path.pattern);
  authorizePatternAccess(caller, path.organization, path.pattern, access, { record });
  return record;
}

/**
 * Row visibility of the lists (§3.4, §3.6): org admins and plain users see their org's, IBM's and
 * public patterns; nodes, agbots and root are not filtered (upstream's lists, kept: patterns hold
 * no secrets, and its catalog shows nodes and agbots every pattern anyway).
 */
export function canSeePattern(caller: Caller, record: PatternRecord): boolean {
  if (record.public || record.org === caller.org || record.org === IBM_ORG) return true;
  return caller.kind === 'node' || caller.kind === 'agbot' || isSuperUser(caller);
}
