import { type Caller, isSuperUser } from '#lib/auth/caller';
import { likeMatcher } from '#lib/like';
import { getPattern } from '#tables/pattern/records';
import { findServiceVersions } from '#tables/service/references';
import { missingPattern } from './rules.ts';

type UserInputEntry = {
  serviceOrgid: string;
  serviceUrl: string;
  serviceArch?: string | null;
  serviceVersionRange?: string | null;
};

/** A node may name a pattern that exists and is public or of the node's org (root: any), docs/exchange.md#node-put. */
export async function patternProblem(
  caller: Caller,
  org: string,
  pattern: string,
): Promise<string | undefined> {
  const slash = pattern.indexOf('/');
  const record = await getPattern(pattern.slice(0, slash), pattern.slice(slash + 1));
  if (record && (record.public || record.org === org || isSuperUser(caller))) return undefined;
  return missingPattern(pattern);
}

/** The one version of an exact range `[v,v]`, else undefined (any version). */
const singleVersion = (range: string | null | undefined): string | undefined => {
  const exact = /^\[\s*([^,\s]+)\s*,\s*([^\]\s]+)\s*\]$/.exec(range ?? '');
  return exact && exact[1] === exact[2] ? exact[1] : undefined;
};

/**
 * A node's userInput entries must each name a service the caller may see (the node's org or
 * public; root: any): org and url equal, arch LIKE `serviceArch` (absent or "" = any), version LIKE
 * the single version of an exact `[v,v]` range (otherwise any), as upstream (docs/exchange.md#node-put).
 */
export async function userInputProblem(
  caller: Caller,
  org: string,
  entries: UserInputEntry[],
): Promise<string | undefined> {
  const missing: string[] = [];
  for (const entry of entries) {
    const arch = entry.serviceArch ? likeMatcher(entry.serviceArch) : () => true;
    const version = singleVersion(entry.serviceVersionRange);
    const versionMatches = version ? likeMatcher(version) : () => true;
    const found = (await findServiceVersions(entry.serviceOrgid, entry.serviceUrl)).some(
      (s) => (s.org === org || s.public || isSuperUser(caller)) && arch(s.arch) && versionMatches(s.version),
    );
    if (!found) missing.push(`${entry.serviceOrgid}/${entry.serviceUrl}`);
  }
  return missing.length > 0
    ? `the following referenced services do not exist in the exchange: ${missing.join(', ')}`
    : undefined;
}
