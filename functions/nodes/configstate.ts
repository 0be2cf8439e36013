import type { PostConfigStateBody } from './report-schemas.ts';

/** The services_configstate rules (docs/exchange-catalog.md#node-sub-resources), with upstream's messages. */

/** The first problem with the body, or undefined. */
export function configStateProblem({
  org,
  url,
  configState,
  version,
}: PostConfigStateBody): string | undefined {
  if (configState !== 'suspended' && configState !== 'active') {
    return "the configState value must be either 'suspended' or 'active'.";
  }
  if (org === '' && (url !== '' || (version ?? '') !== '')) {
    return 'Org attribute not detailed for specific url or version in request body.';
  }
  if (url === '' && (version ?? '') !== '')
    return 'Version cannot be found if url attribute is not specified.';
  return undefined;
}

/** Whether a registered service url (`<org>/<url>`) matches the request; "" matches any. */
function matches(compositeUrl: string, { org, url }: PostConfigStateBody): boolean {
  const parts = /^(\S+?)\/(\S+)$/.exec(compositeUrl);
  if (!parts) return false;
  const [, serviceOrg, serviceUrl] = parts;
  return (org === '' || serviceOrg === org) && (url === '' || serviceUrl === url);
}

// biome-ignore lint/suspicious/noExplicitAny: stored registeredServices are validated on write and read back loosely.
type RegService = Record<string, any>;

type ConfigStateOutcome =
  | { kind: 'no-services' }
  | { kind: 'no-match' }
  | { kind: 'matched'; services: RegService[]; changed: boolean };

/**
 * The node's registeredServices with the request's configState applied to every match whose
 * version equals the request's (or any version when the request names none).
 */
export function applyConfigState(registered: unknown[], request: PostConfigStateBody): ConfigStateOutcome {
  if (registered.length === 0) return { kind: 'no-services' };
  const version = request.version ?? '';
  let matched = false;
  let changed = false;
  const services = (registered as RegService[]).map((service) => {
    if (!matches(String(service.url ?? ''), request)) return service;
    matched = true;
    const current = service.configState ?? '';
    if (current === request.configState || (version !== '' && version !== (service.version ?? '')))
      return service;
    changed = true;
    return { ...service, configState: request.configState };
  });
  return matched ? { kind: 'matched', services, changed } : { kind: 'no-match' };
}
