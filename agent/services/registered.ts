import type { RegisteredService } from '../exchange/types.ts';

/** A registered service as the Exchange node lists it; the state defaults to active. */
export function registration(org: string, url: string, version = ''): RegisteredService {
  return {
    url: `${org}/${url}`,
    numAgreements: 0,
    configState: 'active',
    policy: '',
    properties: [],
    version,
  };
}

/** `<org>/<url>` → its parts (the org never holds a slash; the url may). */
export function splitServiceUrl(full: string): { org: string; url: string } {
  const slash = full.indexOf('/');
  return slash < 0 ? { org: '', url: full } : { org: full.slice(0, slash), url: full.slice(slash + 1) };
}

/** Entries as the Exchange may send them (missing parts, null), in the shape kept locally. */
export function normalizeRegistered(entries: readonly Partial<RegisteredService>[] | null | undefined) {
  return (entries ?? []).map(
    (e): RegisteredService => ({
      url: e.url ?? '',
      numAgreements: e.numAgreements ?? 0,
      configState: e.configState || 'active',
      policy: e.policy ?? '',
      properties: e.properties ?? [],
      version: e.version ?? '',
    }),
  );
}

export function configStateView(services: RegisteredService[]) {
  return {
    configstates: services.map((s) => {
      const { org, url } = splitServiceUrl(s.url);
      return { url, org, version: s.version, configState: s.configState || 'active' };
    }),
  };
}
