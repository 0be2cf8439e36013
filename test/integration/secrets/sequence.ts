import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';
import * as changes from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';

/**
 * The org's change rows, oldest first. The change feed is moving to pending rows that readers
 * sequence first (SHARED-DECISIONS, "Update 23:50"); call that step when this main has it.
 */
export async function sequencePending(
  org: string,
): Promise<{ resource: string; id: string; operation: string }[]> {
  const sequence = (changes as Record<string, unknown>).sequencePendingChanges;
  if (typeof sequence === 'function') await sequence();
  const rows: { resource: string; id: string; operation: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': feedKeys.orgPartition(org) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? [])
      rows.push({ resource: item.resource, id: item.id, operation: item.operation });
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return rows;
}
