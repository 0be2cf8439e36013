import type * as z from 'zod';
import type { ServiceRecord } from '#tables/service/records';
import type { service } from './responses.ts';
import type { ServiceBody, ServiceRefInput } from './schemas.ts';

/** Services as stored (JSON-valued fields as JSON text) and as upstream returns them (docs/exchange-catalog.md#service-body-and-shape). */

/** The stored requiredServices entries: what was sent, absent options left out. */
const storedRef = (ref: ServiceRefInput) => ({
  url: ref.url,
  org: ref.org,
  ...(ref.version != null ? { version: ref.version } : {}),
  ...(ref.versionRange != null ? { versionRange: ref.versionRange } : {}),
  arch: ref.arch,
});

/** The record a POST or PUT stores: absent fields get upstream's defaults (description = label). */
export function storedService(
  org: string,
  id: string,
  owner: string,
  body: ServiceBody,
  lastUpdated: string,
): ServiceRecord {
  return {
    org,
    id,
    url: body.url,
    version: body.version,
    arch: body.arch,
    public: body.public ?? false,
    owner,
    label: body.label,
    description: body.description ?? body.label,
    documentation: body.documentation ?? '',
    sharable: body.sharable,
    matchHardware: JSON.stringify(body.matchHardware ?? {}),
    requiredServices: JSON.stringify((body.requiredServices ?? []).map(storedRef)),
    userInput: JSON.stringify(body.userInput ?? []),
    deployment: body.deployment ?? '',
    deploymentSignature: body.deploymentSignature ?? '',
    clusterDeployment: body.clusterDeployment ?? '',
    clusterDeploymentSignature: body.clusterDeploymentSignature ?? '',
    imageStore: JSON.stringify(body.imageStore ?? {}),
    lastUpdated,
    rev: 0,
  };
}

export const encodeRequiredServices = (refs: ServiceRefInput[]): string =>
  JSON.stringify(refs.map(storedRef));

// biome-ignore lint/suspicious/noExplicitAny: stored JSON text was validated on write.
const parsed = (text: string, fallback: any): any => {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
};

/** Typed by the response schema: a field that is not in it fails `tsc`. */
export function serviceView(record: ServiceRecord): z.infer<typeof service> {
  const refs = parsed(record.requiredServices, []) as Record<string, string | undefined>[];
  return {
    owner: record.owner,
    label: record.label,
    description: record.description,
    public: record.public,
    documentation: record.documentation,
    url: record.url,
    version: record.version,
    arch: record.arch,
    sharable: record.sharable,
    matchHardware: parsed(record.matchHardware, {}),
    requiredServices: refs.map((ref) => ({
      url: String(ref.url ?? ''),
      org: String(ref.org ?? ''),
      // Only a range given: no `version` key (upstream's schema has a string there, never null).
      ...(ref.version != null ? { version: ref.version } : {}),
      versionRange: String(ref.versionRange ?? ref.version ?? ''),
      arch: String(ref.arch ?? ''),
    })),
    userInput: parsed(record.userInput, []),
    deployment: record.deployment,
    deploymentSignature: record.deploymentSignature,
    clusterDeployment: record.clusterDeployment,
    clusterDeploymentSignature: record.clusterDeploymentSignature,
    imageStore: parsed(record.imageStore, {}),
    lastUpdated: record.lastUpdated,
    organization: record.org,
  };
}

/** `?attribute=` names (any case) and the stored text each answers; other names answer the whole service. */
const ATTRIBUTES: Record<string, (record: ServiceRecord) => string> = {
  arch: (r) => r.arch,
  clusterdeployment: (r) => r.clusterDeployment,
  clusterdeploymentsignature: (r) => r.clusterDeploymentSignature,
  deployment: (r) => r.deployment,
  deploymentsignature: (r) => r.deploymentSignature,
  description: (r) => r.description,
  documentation: (r) => r.documentation,
  imagestore: (r) => r.imageStore,
  label: (r) => r.label,
  lastupdated: (r) => r.lastUpdated,
  matchhardware: (r) => r.matchHardware,
  organization: (r) => r.org,
  owner: (r) => r.owner,
  public: (r) => String(r.public),
  requiredservices: (r) => r.requiredServices,
  sharable: (r) => r.sharable,
  url: (r) => r.url,
  userinput: (r) => r.userInput,
  version: (r) => r.version,
};

export function serviceAttribute(record: ServiceRecord, attribute: string): string | undefined {
  const read = Object.hasOwn(ATTRIBUTES, attribute.toLowerCase())
    ? ATTRIBUTES[attribute.toLowerCase()]
    : undefined;
  return read?.(record);
}

/** The list body: `{services: {"<org>/<id>": …}, lastIndex: 0}`, sorted by `org/id`. */
export function servicesBody(records: ServiceRecord[]) {
  const sorted = [...records].sort((a, b) => {
    const x = `${a.org}/${a.id}`;
    const y = `${b.org}/${b.id}`;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return {
    services: Object.fromEntries(sorted.map((r) => [`${r.org}/${r.id}`, serviceView(r)])),
    lastIndex: 0,
  };
}
