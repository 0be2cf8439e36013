import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { sequencePendingChanges } from './changes.ts';
import { feedKeys } from './keys.ts';

/** One of a node's own change rows, as the console shows it. */
export interface NodeChange {
  changeId: number;
  resource: string;
  operation: string;
  lastUpdated: string;
}

/**
 * A node's newest `limit` change rows, newest first: numbers what is pending (pattern 42: one
 * Query when nothing is), then one Query of the node's own feed partition with `Limit`, so the cost
 * is the same for an org of 10 nodes or 100,000. Rows past their ttl (deleted late by DynamoDB)
 * are dropped, so the answer may hold fewer than `limit`.
 */
export async function recentNodeChanges(
  org: string,
  id: string,
  limit: number,
  now: Date,
): Promise<NodeChange[]> {
  await sequencePendingChanges();
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': feedKeys.nodePartition(org, id) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return Items.filter((item) => Number(item.ttl) > nowSeconds).map((item) => ({
    changeId: Number(item.changeId),
    resource: String(item.resource),
    operation: String(item.operation),
    lastUpdated: String(item.lastUpdated),
  }));
}
