import type { Store } from '../store/store.ts';

export const ATTRIBUTE_TYPES = [
  'MeteringAttributes',
  'AgreementProtocolAttributes',
  'UserInputAttributes',
  'HTTPSBasicAuthAttributes',
  'DockerRegistryAuthAttributes',
] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export interface ServiceSpec {
  url: string;
  organization: string;
}

/** An attribute as stored (secrets in clear: the database file is private to the agent). */
export interface Attribute {
  id: string;
  type: AttributeType;
  label: string;
  publishable: boolean;
  host_only: boolean;
  /** Empty: applies to every service. */
  service_specs: ServiceSpec[];
  mappings: Record<string, unknown>;
}

/** One document holds them all: a node has a handful. */
export const ATTRIBUTES_KEY = 'attributes';

export const loadAttributes = (store: Store): Attribute[] => store.get<Attribute[]>(ATTRIBUTES_KEY) ?? [];

export function saveAttributes(store: Store, attributes: Attribute[]): void {
  store.set(ATTRIBUTES_KEY, attributes);
}

/** True when the attribute applies to the service (no specs = every service). */
export function appliesTo(attribute: Attribute, org: string, url: string): boolean {
  return (
    attribute.service_specs.length === 0 ||
    attribute.service_specs.some(
      (spec) => spec.url === url && (spec.organization === '' || spec.organization === org),
    )
  );
}
