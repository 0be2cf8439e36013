import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';

/**
 * One page of the names (gsi1sk) in a gsi1 partition after `after`, in order: one Query with
 * `Limit: limit + 1` (the extra one only says whether more follow), so a page costs the same in an
 * org of 10 records or 10,000 (`limit` 0 asks only whether any follow). Every attribute is read (the index projects them all) but only
 * the name is returned.
 */
export async function indexNamesAfter(
  partition: string,
  after: string | undefined,
  limit: number,
): Promise<{ names: string[]; more: boolean }> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: after === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk > :after',
      ExpressionAttributeValues: { ':pk': partition, ...(after === undefined ? {} : { ':after': after }) },
      ProjectionExpression: 'gsi1sk',
      Limit: limit + 1,
    }),
  );
  const names = Items.map((item) => String(item.gsi1sk));
  return { names: names.slice(0, limit), more: names.length > limit };
}
