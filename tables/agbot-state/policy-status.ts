import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AgbotAgreement, PolicyStatus } from '#lib/agbot-store/contract';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { agbotStateKeys } from './keys.ts';

/**
 * What a served policy's searches saw, one small item per policy at `STATUS#<policy>` (a few
 * kilobytes at most: the skipped nodes are capped), written by the round only when it changed.
 */

/** One GetItem. */
export async function policyStatus(agbot: AgbotRef, policy: string): Promise<PolicyStatus | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: agbotStateKeys.policyStatus(agbot.org, agbot.id, policy),
      ConsistentRead: true,
    }),
  );
  return Item?.status as PolicyStatus | undefined;
}

/** One PutItem. */
export async function savePolicyStatus(agbot: AgbotRef, status: PolicyStatus): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...agbotStateKeys.policyStatus(agbot.org, agbot.id, status.policy), status },
    }),
  );
}

/** One Query of the `STATUS#` prefix. */
export async function policyStatuses(agbot: AgbotRef): Promise<PolicyStatus[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
      ':prefix': agbotStateKeys.statusPrefix,
    },
    ConsistentRead: true,
  });
  return items.map((item) => item.status as PolicyStatus);
}

/** One DeleteItem. */
export async function dropPolicyStatus(agbot: AgbotRef, policy: string): Promise<void> {
  await documentClient.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: agbotStateKeys.policyStatus(agbot.org, agbot.id, policy),
    }),
  );
}

/**
 * The statuses and the live agreements together, for the Exchange's read-only status route: one
 * Query of the sort-key range `LIVE#` … `STATUS#` (which holds only the small revisit and search
 * items besides), eventually consistent, every page.
 */
export async function statusView(
  agbot: AgbotRef,
): Promise<{ statuses: PolicyStatus[]; live: AgbotAgreement[] }> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    // The revisit and search items in between hold neither attribute.
    FilterExpression: 'attribute_exists(agreement) OR attribute_exists(#status)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
      ':from': agbotStateKeys.livePrefix,
      ':to': `${agbotStateKeys.statusPrefix}\uffff`,
    },
  });
  const statuses: PolicyStatus[] = [];
  const live: AgbotAgreement[] = [];
  for (const item of items) {
    if (String(item.sk).startsWith(agbotStateKeys.statusPrefix)) statuses.push(item.status as PolicyStatus);
    else live.push(item.agreement as AgbotAgreement);
  }
  return { statuses, live };
}
