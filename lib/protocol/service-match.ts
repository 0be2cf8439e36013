/**
 * Which user-input or secret-binding entry applies to a service (anax policy.FindUserInput and the
 * secret-binding lookup): same org and URL, an arch that is equal or left open, and the service
 * version inside the entry's range. The first matching entry wins, as upstream.
 */
import { versionInRange } from '#lib/catalog/version-range';

export interface ServiceRef {
  org: string;
  url: string;
  version: string;
  arch: string;
}

interface ServiceScoped {
  serviceOrgid: string;
  serviceUrl: string;
  serviceArch?: string;
  serviceVersionRange?: string;
}

/** Upstream's default range for an entry without one; note that it leaves out 0.0.0. */
const DEFAULT_ENTRY_RANGE = '[0.0.1,INFINITY)';

export function appliesTo(
  entry: ServiceScoped,
  service: ServiceRef,
  openArchs: readonly string[] = [''],
): boolean {
  if (entry.serviceOrgid !== service.org || entry.serviceUrl !== service.url) return false;
  const arch = entry.serviceArch ?? '';
  if (!openArchs.includes(arch) && service.arch !== '' && arch !== service.arch) return false;
  return (
    service.version === '' ||
    versionInRange(service.version, entry.serviceVersionRange || DEFAULT_ENTRY_RANGE)
  );
}

export const findFor = <T extends ServiceScoped>(
  entries: readonly T[] | null | undefined,
  service: ServiceRef,
  openArchs?: readonly string[],
): T | undefined => (entries ?? []).find((entry) => appliesTo(entry, service, openArchs));
