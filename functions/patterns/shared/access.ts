import { authorizeCatalogAccess, type CatalogAccess } from '#functions/catalog/shared/access';
import { type Caller, IBM_ORG, isSuperUser } from '#lib/auth/caller';
import { notFound } from '#lib/http/errors';
import { getPattern, type PatternRecord } from '#tables/pattern/records';
import type { PatternPath } from './schemas.ts';

type PatternAccess = CatalogAccess;

export const patternId = (path: PatternPath): string => `${path.organization}/${path.pattern}`;
export const patternNotFound = (path: PatternPath) => notFound(`pattern '${patternId(path)}' not found`);

/** Throws 403 (or the cross-org 404) unless the caller may `access` the pattern (the catalog rule). */
export const authorizePatternAccess = (
  caller: Caller,
  org: string,
  name: string,
  access: PatternAccess,
  target: { record?: PatternRecord | undefined; collection?: boolean },
): void =>
  authorizeCatalogAccess(caller, { org, id: name, kind: 'PATTERNS', label: 'pattern' }, access, target);

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
 * Row visibility of the lists (docs/exchange-catalog.md#pattern-visibility, #catalog-of-patterns): org admins and plain users see their org's, IBM's and
 * public patterns; nodes, agbots and root are not filtered (upstream's lists, kept: patterns hold
 * no secrets, and its catalog shows nodes and agbots every pattern anyway).
 */
export function canSeePattern(caller: Caller, record: PatternRecord): boolean {
  if (record.public || record.org === caller.org || record.org === IBM_ORG) return true;
  return caller.kind === 'node' || caller.kind === 'agbot' || isSuperUser(caller);
}
