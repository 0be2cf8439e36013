import { serviceUrlPart } from '#lib/catalog/service-id';
import { tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { serviceKeys } from './keys.ts';

/** What a "referenced service exists" check needs of a stored service. */
interface ServiceReference {
  org: string;
  url: string;
  version: string;
  arch: string;
  public: boolean;
}

/**
 * Every stored version and arch of `url` in `org` (docs/exchange-catalog.md#service-ids-and-references checks pick from these).
 * One Query of the org's services in gsi1 on the id prefix `<url part>_`; the filter drops other
 * urls whose id happens to share that prefix. Its cost grows with that url's versions only.
 */
export async function findServiceVersions(org: string, url: string): Promise<ServiceReference[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    FilterExpression: '#url = :url',
    ExpressionAttributeNames: {
      '#url': 'url',
      '#org': 'org',
      '#version': 'version',
      '#arch': 'arch',
      '#public': 'public',
    },
    ExpressionAttributeValues: {
      ':pk': serviceKeys.orgIndex(org),
      ':prefix': `${serviceUrlPart(url)}_`,
      ':url': url,
    },
    ProjectionExpression: '#org, #url, #version, #arch, #public',
  });
  return items.map((item) => ({
    org: item.org as string,
    url: item.url as string,
    version: item.version as string,
    arch: item.arch as string,
    public: item.public === true,
  }));
}
