import { serviceId } from '#lib/catalog/service-id';
import { createDeploymentPolicy, type DeploymentPolicyRecord } from '#tables/deployment-policy/records';
import { createManagementPolicy, type ManagementPolicyRecord } from '#tables/management-policy/records';
import { createPattern, type PatternRecord } from '#tables/pattern/records';
import { createService, getService, rewriteService, type ServiceRecord } from '#tables/service/records';

/**
 * Stores a service through the services table operation (`SERVICE#<org>/<id>`, listed in gsi1
 * `ORG#<org>#SERVICES`, its owner's link and count, its change row), for tests of what references
 * services. The org need not exist; seeding an existing id replaces it.
 */
export async function seedService(
  org: string,
  service: { url: string; version: string; arch: string; public?: boolean; owner?: string },
): Promise<string> {
  const id = serviceId(service.url, service.version, service.arch);
  const record: ServiceRecord = {
    org,
    id,
    url: service.url,
    version: service.version,
    arch: service.arch,
    public: service.public === true,
    owner: service.owner ?? `${org}/admin`,
    label: service.url,
    description: service.url,
    documentation: '',
    sharable: 'multiple',
    matchHardware: '{}',
    requiredServices: '[]',
    userInput: '[]',
    deployment: '',
    deploymentSignature: '',
    clusterDeployment: '',
    clusterDeploymentSignature: '',
    imageStore: '{}',
    lastUpdated: new Date().toISOString(),
    rev: 0,
  };
  const created = await createService(record, { maxOwned: 0, orgMustExist: false });
  if (created === 'exists') {
    const current = await getService(org, id);
    if (current) await rewriteService(current, { ...record, rev: current.rev }, 'created/modified');
  }
  return id;
}

/** Stores a deployment policy (no services checked), for tests that need one to exist. */
export async function seedDeploymentPolicy(
  org: string,
  name: string,
  extra: Partial<DeploymentPolicyRecord> = {},
): Promise<void> {
  const now = new Date().toISOString();
  await createDeploymentPolicy(
    {
      org,
      name,
      owner: `${org}/admin`,
      label: name,
      description: '',
      service: { name: 'web', org, arch: '', serviceVersions: [], nodeHealth: {}, clusterNamespace: '' },
      properties: [],
      constraints: [],
      userInput: [],
      secretBinding: [],
      created: now,
      lastUpdated: now,
      ...extra,
    },
    0,
  );
}

/** Stores a pattern (no services checked), for tests that need one to exist. */
export async function seedPattern(
  org: string,
  name: string,
  extra: Partial<PatternRecord> = {},
): Promise<void> {
  await createPattern(
    {
      org,
      name,
      owner: `${org}/admin`,
      public: false,
      label: name,
      description: '',
      services: [],
      userInput: [],
      secretBinding: [],
      agreementProtocols: [],
      clusterNamespace: '',
      lastUpdated: new Date().toISOString(),
      rev: 0,
      ...extra,
    },
    0,
  );
}

/**
 * Stores a node management policy through its table operation (the org must exist), for tests of
 * what hangs on one: node statuses need their policy.
 */
export async function seedManagementPolicy(
  org: string,
  name: string,
  extra: Partial<ManagementPolicyRecord> = {},
): Promise<void> {
  const now = new Date().toISOString();
  const outcome = await createManagementPolicy({
    org,
    name,
    owner: `${org}/admin`,
    label: name,
    description: name,
    constraints: [],
    properties: [],
    patterns: [],
    enabled: true,
    start: 'now',
    startWindow: 0,
    allowDowngrade: false,
    manifest: '',
    created: now,
    lastUpdated: now,
    ...extra,
  });
  if (outcome !== 'created') throw new Error(`seedManagementPolicy ${org}/${name}: ${outcome}`);
}
