import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';
import { documentClient, tableName } from '../client.ts';
import { batchDelete } from '../kernel/batch-delete.ts';
import { forEachLimited } from '../kernel/for-each-limited.ts';
import { queryAll } from '../kernel/query-all.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

/**
 * A policy's staged rollout (docs/rollouts.md#crash-safety): the record at `ROLLOUT#<policy>` and
 * one item per targeted node at `RNODE#"<policy>"#<node>` (under 1 KB: 1 WCU a write). Every write
 * replaces a whole item, so a crash leaves each one as it was or as it was meant to be.
 */
export async function rollout(agbot: AgbotRef, policy: string): Promise<RolloutRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.rollout(agbot.org, agbot.id, policy),
      ConsistentRead: true,
    }),
  );
  return Item?.record as RolloutRecord | undefined;
}

export async function saveRollout(agbot: AgbotRef, record: RolloutRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...agbotStateKeys.rollout(agbot.org, agbot.id, record.policy), record },
    }),
  );
}

/** One Query of the policy's node items, in the rollout's order. */
export async function rolloutNodes(agbot: AgbotRef, policy: string): Promise<RolloutNode[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
      ':prefix': agbotStateKeys.rolloutNodePrefix(policy),
    },
    ConsistentRead: true,
  });
  return items.map((item) => item.row as RolloutNode).sort((a, b) => a.order - b.order);
}

/** One PutItem per node, a few at a time. */
export async function saveRolloutNodes(agbot: AgbotRef, nodes: RolloutNode[]): Promise<void> {
  await forEachLimited(nodes, async (row) => {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...agbotStateKeys.rolloutNode(agbot.org, agbot.id, row.policy, row.node), row },
      }),
    );
  });
}

export async function dropRolloutNodes(agbot: AgbotRef, policy: string): Promise<void> {
  const nodes = await rolloutNodes(agbot, policy);
  await batchDelete(nodes.map((n) => agbotStateKeys.rolloutNode(agbot.org, agbot.id, policy, n.node)));
}
