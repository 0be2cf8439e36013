import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AgbotAgreement, PolicyStatus } from '#lib/agbot-store/contract';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import type { AgbotRef } from './agbot-ref.ts';
import { liveAgreementsOfOrg } from './agreements.ts';
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
 * The statuses and live agreements of one org's policies (and pattern services), for the
 * Exchange's read-only status and console routes: one Query of the org's `STATUS#<org>/` prefix
 * and one of its live agreements' gsi1 partition, each every page, eventually consistent. Neither
 * reads another org's items.
 */
export async function orgStatusView(
  agbot: AgbotRef,
  org: string,
): Promise<{ statuses: PolicyStatus[]; live: AgbotAgreement[] }> {
  const [statuses, live] = await Promise.all([
    queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': agbotStateKeys.partition(agbot.org, agbot.id),
        ':prefix': agbotStateKeys.statusOfOrgPrefix(org),
      },
    }),
    liveAgreementsOfOrg(agbot, org),
  ]);
  return { statuses: statuses.map((item) => item.status as PolicyStatus), live };
}
