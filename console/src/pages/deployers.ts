/** The parts of the policy and pattern lists this reads (their full types are in api.ts). */
type PolicyServices = Record<string, { service: { org: string; name: string } }>;
type PatternServices = Record<string, { services: Record<string, unknown>[] }>;

/**
 * Who deploys the org's service `url`: its deployment policies and its patterns (a pattern lists
 * services by `serviceOrgid`/`serviceUrl`), as `policy <org/name>` and `pattern <org/name>`.
 */
export function deployersOf(
  org: string,
  url: string,
  policies: PolicyServices,
  patterns: PatternServices,
): string[] {
  const byPolicy = Object.entries(policies)
    .filter(([, policy]) => policy.service.org === org && policy.service.name === url)
    .map(([id]) => `policy ${id}`);
  const byPattern = Object.entries(patterns)
    .filter(([, pattern]) =>
      pattern.services.some((service) => service.serviceOrgid === org && service.serviceUrl === url),
    )
    .map(([id]) => `pattern ${id}`);
  return [...byPolicy, ...byPattern];
}
