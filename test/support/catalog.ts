import { serviceId } from '#lib/catalog/service-id';
import { createService, getService, rewriteService, type ServiceRecord } from '#tables/service-records';

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
