import { versionInRange } from '#lib/catalog/version-range';
import { findServiceVersions } from '#tables/service/references';

/** What a catalog body references (docs/exchange-catalog.md#service-ids-and-references): services of any org, public or not. */

const ANY_VERSION = '[0.0.0,INFINITY)';

interface UserInputReference {
  serviceOrgid: string;
  serviceUrl: string;
  serviceArch?: string | null | undefined;
  serviceVersionRange?: string | null | undefined;
}

/** Upstream's message for a referenced service that does not exist. */
export const describeMissingService = (org: string, url: string, version: string, arch: string) =>
  `the following referenced service does not exist in the exchange: org= ${org}, url= ${url}, version= ${version}, arch= ${arch}`;

/**
 * The first userInput entry (patterns and deployment policies) naming no existing service: any
 * version unless it names a range, any arch when absent or `""`.
 */
export async function missingUserInputService(entries: UserInputReference[]): Promise<string | undefined> {
  for (const entry of entries) {
    const range = entry.serviceVersionRange || ANY_VERSION;
    const stored = await findServiceVersions(entry.serviceOrgid, entry.serviceUrl);
    const found = stored.some(
      (s) => versionInRange(s.version, range) && (!entry.serviceArch || s.arch === entry.serviceArch),
    );
    if (!found)
      return describeMissingService(entry.serviceOrgid, entry.serviceUrl, range, entry.serviceArch ?? '');
  }
  return undefined;
}
