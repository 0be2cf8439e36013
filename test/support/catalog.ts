import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { serviceId } from '#lib/catalog/service-id';
import { documentClient, tableName } from '#tables/client';
import { indexKeys, keys } from '#tables/keys';

/**
 * Stores a minimal service item in the layout the services table code writes (`SERVICE#<org>/<id>`,
 * listed in gsi1 `ORG#<org>#SERVICES`), for tests of what references services.
 */
export async function seedService(
  org: string,
  service: { url: string; version: string; arch: string; public?: boolean; owner?: string },
): Promise<string> {
  const id = serviceId(service.url, service.version, service.arch);
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.service(org, id),
        gsi1pk: indexKeys.orgServices(org),
        gsi1sk: id,
        org,
        id,
        url: service.url,
        version: service.version,
        arch: service.arch,
        public: service.public === true,
        owner: service.owner ?? `${org}/admin`,
        lastUpdated: new Date().toISOString(),
      },
    }),
  );
  return id;
}
