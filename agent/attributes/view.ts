import type { Attribute } from './store.ts';

const MASK_PASSWORD = '**********';
const MASK_TOKEN = '********';

/** What the API shows: secrets masked, metering keys spelled as upstream shows them. */
export function maskedMappings(attribute: Pick<Attribute, 'type' | 'mappings'>): Record<string, unknown> {
  const m = attribute.mappings;
  switch (attribute.type) {
    case 'HTTPSBasicAuthAttributes':
      return { ...m, password: m.password === '' ? '' : MASK_PASSWORD };
    case 'DockerRegistryAuthAttributes':
      return {
        ...m,
        auths: ((m.auths as Record<string, unknown>[] | undefined) ?? []).map((auth) => ({
          ...auth,
          token: MASK_TOKEN,
        })),
      };
    case 'MeteringAttributes':
      return {
        tokens: m.tokens,
        per_time_unit: m.perTimeUnit,
        notification_interval: m.notificationInterval,
      };
    default:
      return { ...m };
  }
}

export function attributeView(attribute: Attribute) {
  return {
    id: attribute.id,
    type: attribute.type,
    label: attribute.label,
    publishable: attribute.publishable,
    host_only: attribute.host_only,
    service_specs: specsView(attribute),
    mappings: maskedMappings(attribute),
  };
}

const specsView = (attribute: Attribute) =>
  attribute.service_specs.map((s) => ({ url: s.url, organization: s.organization }));

/** An attribute inside a service configuration: identity fields grouped in `meta`. */
export function attributeInConfig(attribute: Attribute) {
  return {
    meta: {
      id: attribute.id,
      type: attribute.type,
      label: attribute.label,
      host_only: attribute.host_only,
      publishable: attribute.publishable,
    },
    service_specs: specsView(attribute),
    mappings: maskedMappings(attribute),
  };
}
