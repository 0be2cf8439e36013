import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SearchState } from '#lib/agbot-store/contract';
import { documentClient, tableName } from '../client.ts';
import { batchDelete } from '../kernel/batch-delete.ts';
import { queryAll } from '../kernel/query-all.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

/** One served policy's (or pattern's) search state at `SEARCH#<policy>`. */
export async function getSearch(agbot: AgbotRef, policy: string): Promise<SearchState | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.search(agbot.org, agbot.id, policy),
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return {
    changedSince: Number(Item.changedSince),
    fullScanAt: Number(Item.fullScanAt),
    ...(Item.session === undefined ? {} : { session: String(Item.session) }),
  };
}

export async function setSearch(agbot: AgbotRef, policy: string, state: SearchState): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...agbotStateKeys.search(agbot.org, agbot.id, policy),
        changedSince: state.changedSince,
        fullScanAt: state.fullScanAt,
        session: state.session,
      },
    }),
  );
}

/** A node to look at again, one small item per (policy, node): marking twice is one item. */
export async function revisit(agbot: AgbotRef, policy: string, node: string): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...agbotStateKeys.revisit(agbot.org, agbot.id, policy, node), node },
    }),
  );
}

export async function revisits(agbot: AgbotRef, policy: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
      ':prefix': agbotStateKeys.revisitPrefix(policy),
    },
    ProjectionExpression: 'node',
    ConsistentRead: true,
  });
  return items.map((item) => String(item.node));
}

export async function revisited(agbot: AgbotRef, policy: string, nodes: string[]): Promise<void> {
  await batchDelete(nodes.map((node) => agbotStateKeys.revisit(agbot.org, agbot.id, policy, node)));
}
