import { filterMatcher } from '#lib/like';
import type { ServiceRecord } from '#tables/service/records';
import type { CatalogServicesQuery } from './schemas.ts';

/**
 * The service list filters (docs/exchange-catalog.md#service-visibility, #catalog-of-services): `owner`, `url`, `version`, `arch`,
 * `organization` exact or SQL LIKE with `%`; `public`; `nodetype` device/cluster (rows with that
 * kind of deployment); `requiredurl` (a required service with that url, LIKE as upstream's
 * `%"url":"<value>"%` over the stored JSON).
 */
export function serviceListFilter(query: CatalogServicesQuery): (record: ServiceRecord) => boolean {
  const tests: ((record: ServiceRecord) => boolean)[] = [];
  const field = (filter: string | undefined, read: (record: ServiceRecord) => string) => {
    if (filter === undefined) return;
    const matches = filterMatcher(filter);
    tests.push((record) => matches(read(record)));
  };
  field(query.organization, (r) => r.org);
  field(query.owner, (r) => r.owner);
  field(query.url, (r) => r.url);
  field(query.version, (r) => r.version);
  field(query.arch, (r) => r.arch);
  if (query.requiredurl !== undefined) field(`%"url":"${query.requiredurl}"%`, (r) => r.requiredServices);
  if (query.public !== undefined) tests.push((r) => r.public === query.public);
  const nodeType = query.nodetype?.toLowerCase();
  if (nodeType === 'device') tests.push((r) => r.deployment !== '');
  if (nodeType === 'cluster') tests.push((r) => r.clusterDeployment !== '');
  return (record) => tests.every((test) => test(record));
}

export const NODE_TYPES = ['device', 'cluster'];
