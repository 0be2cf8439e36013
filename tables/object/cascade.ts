import { tableName } from '../client.ts';
import { batchDelete } from '../kernel/batch-delete.ts';
import { queryPages } from '../kernel/list-ceiling.ts';
import { objectKeys } from './keys.ts';

/**
 * The object store's part of the org cascade (tables/cascade.ts): every object's metadata. The
 * data stays in the store (S3 or the local disk) under the org's prefix: the table cannot reach
 * the store (docs/nmp.md#the-object-store).
 */
export async function deleteOrgObjects(org: string): Promise<void> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': objectKeys.orgIndex(org) },
      ProjectionExpression: 'pk, sk',
    },
    'all',
  );
  await batchDelete(items as { pk: string; sk: string }[]);
}
