import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { changeRowKeys } from '#tables/keys';

export { tableSnapshot } from '#test/e2e/fuzz/table-snapshot';

/** The change rows of an org's feed, oldest first, as `{id, resource, operation}` (tests of writers). */
export async function changeRows(
  org: string,
): Promise<{ id: string; resource: string; operation: string }[]> {
  const rows: { id: string; resource: string; operation: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': changeRowKeys.orgPartition(org) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      rows.push({ id: String(item.id), resource: String(item.resource), operation: String(item.operation) });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return rows;
}
