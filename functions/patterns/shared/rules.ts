import { describeMissingService, missingUserInputService } from '#functions/catalog/shared/references';
import { isValidVersion } from '#lib/catalog/version-range';
import { getOrg } from '#tables/org/records';
import { findServiceVersions } from '#tables/service/references';
import type { PatternService } from './schemas.ts';

/** Upstream's checks of a pattern's services that need no database, in its order (docs/exchange-catalog.md#pattern-body). */
export function servicesProblem(services: PatternService[]): string | undefined {
  if (services.length === 0)
    return 'No services were found in the pattern or the services field was left empty';
  for (const service of services) {
    if (service.serviceVersions.length === 0)
      return `no versions specified for service '${service.serviceOrgid}', '${service.serviceUrl}', '${service.serviceArch}'`;
    for (const version of service.serviceVersions) {
      if (!isValidVersion(version.version))
        return `version '${version.version}' is not valid version format.`;
      if (version.deployment_overrides && !version.deployment_overrides_signature)
        return 'this pattern definition is not signed.';
    }
  }
  return undefined;
}

/**
 * The first referenced service that does not exist (docs/exchange-catalog.md#service-ids-and-references): each version of each pattern service,
 * exactly (arch `*` is no wildcard here), then each userInput entry. Services of any org count.
 */
export async function missingReference(
  services: PatternService[],
  userInput: Parameters<typeof missingUserInputService>[0],
): Promise<string | undefined> {
  for (const service of services) {
    const stored = await findServiceVersions(service.serviceOrgid, service.serviceUrl);
    for (const { version } of service.serviceVersions) {
      if (!stored.some((s) => s.version === version && s.arch === service.serviceArch))
        return describeMissingService(service.serviceOrgid, service.serviceUrl, version, service.serviceArch);
    }
  }
  return missingUserInputService(userInput);
}

/** "Only IBM patterns can be made public": only orgs whose `orgType` is `IBM` (not the org named IBM). */
export async function mayBePublic(org: string): Promise<boolean> {
  return (await getOrg(org))?.orgType === 'IBM';
}
