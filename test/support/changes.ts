import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import { type ChangeRow, sequencePendingChanges } from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';

/**
 * Every numbered change row of a feed partition (an org's `CHANGES#<org>` by default), oldest
 * first, after numbering what is pending: what a reader of the feed would get, for tests of writers.
 */
export async function feedRows(partition: string): Promise<ChangeRow[]> {
  await sequencePendingChanges();
  const rows: ChangeRow[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    rows.push(...((page.Items ?? []) as ChangeRow[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return rows;
}

export const orgChangeRows = (org: string): Promise<ChangeRow[]> => feedRows(feedKeys.orgPartition(org));
