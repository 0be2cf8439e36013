/**
 * The rollout sub-resource of a deployment policy (docs/rollouts.md): the plan with the operator's
 * control beside it (`ROLLOUT`), and one status item per reporting agbot (`ROLLOUTSTATUS#<agbot>`).
 * Every write records its change row in the same transaction: `rollout` for the plan and the
 * operator's actions (the agbots act on them), `rolloutstatus` for an agbot's report.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { EMPTY_CONTROL, type RolloutControl } from '#lib/rollout/control';
import type { RolloutPlan } from '#lib/rollout/plan';
import type { RolloutStatus } from '#lib/rollout/status';
import { documentClient, tableName } from '../client.ts';
import { deploymentPolicyKeys } from '../deployment-policy/keys.ts';
import { type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { batchDelete, type Key } from '../kernel/batch-delete.ts';
import { queryPartition } from '../kernel/query-partition.ts';
import { TransactionFailed } from '../kernel/transact.ts';
import { rolloutKeys } from './keys.ts';

export interface RolloutItem {
  plan: RolloutPlan;
  control: RolloutControl;
  lastUpdated: string;
}

export interface StoredStatus extends RolloutStatus {
  agbot: string;
  updatedAt: string;
}

const change = (org: string, policy: string, resource: string, operation: ChangeOperation) => ({
  org,
  id: policy,
  resource,
  operation,
});

const policyExists = (org: string, policy: string) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: deploymentPolicyKeys.record(org, policy),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

export async function getRollout(org: string, policy: string): Promise<RolloutItem | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: rolloutKeys.plan(org, policy), ConsistentRead: true }),
  );
  return Item ? { plan: Item.plan, control: Item.control, lastUpdated: Item.lastUpdated } : undefined;
}

/** Sets the plan, keeping the control; false when the policy is gone. */
export async function putRolloutPlan(
  org: string,
  policy: string,
  plan: RolloutPlan,
  now: string,
  existed: boolean,
): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          Update: {
            TableName: tableName(),
            Key: rolloutKeys.plan(org, policy),
            UpdateExpression:
              'SET #plan = :plan, lastUpdated = :now, control = if_not_exists(control, :control)',
            ExpressionAttributeNames: { '#plan': 'plan' },
            ExpressionAttributeValues: { ':plan': plan, ':now': now, ':control': EMPTY_CONTROL },
          },
        },
        policyExists(org, policy),
      ],
      [change(org, policy, 'rollout', existed ? 'modified' : 'created')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** Deletes the plan (and the statuses after it); false when there was none. */
export async function deleteRollout(org: string, policy: string): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          Delete: {
            TableName: tableName(),
            Key: rolloutKeys.plan(org, policy),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      [change(org, policy, 'rollout', 'deleted')],
    );
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
  await deleteRolloutStatuses(org, policy);
  return true;
}

/** The statuses of a policy's rollout (the policy's cascade deletes them too). */
export async function deleteRolloutStatuses(org: string, policy: string): Promise<void> {
  const keys = (await queryPartition({
    partition: deploymentPolicyKeys.record(org, policy).pk,
    prefix: rolloutKeys.statusPrefix,
    projection: 'pk, sk',
  })) as Key[];
  await batchDelete(keys);
}

/**
 * Replaces the control with `next` if it is still at `expectedSeq` (an action is a
 * read-compute-write: two at once must not lose one); 'conflict' or 'missing' otherwise.
 */
export async function writeControl(
  org: string,
  policy: string,
  expectedSeq: number,
  next: RolloutControl,
): Promise<'written' | 'conflict'> {
  try {
    await transactWriteWithChanges(
      [
        {
          Update: {
            TableName: tableName(),
            Key: rolloutKeys.plan(org, policy),
            UpdateExpression: 'SET control = :next',
            ConditionExpression: 'attribute_exists(pk) AND control.seq = :expected',
            ExpressionAttributeValues: { ':next': next, ':expected': expectedSeq },
          },
        },
      ],
      [change(org, policy, 'rollout', 'modified')],
    );
    return 'written';
  } catch (error) {
    if (error instanceof TransactionFailed) return 'conflict';
    throw error;
  }
}

/** An agbot's report; false when the plan is gone. */
export async function putRolloutStatus(org: string, policy: string, status: StoredStatus): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          Put: { TableName: tableName(), Item: { ...rolloutKeys.status(org, policy, status.agbot), status } },
        },
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: rolloutKeys.plan(org, policy),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      [change(org, policy, 'rolloutstatus', 'modified')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** Every agbot's status of the policy's rollout (one Query). */
export async function listRolloutStatuses(org: string, policy: string): Promise<StoredStatus[]> {
  const items = await queryPartition({
    partition: deploymentPolicyKeys.record(org, policy).pk,
    prefix: rolloutKeys.statusPrefix,
  });
  return items.map((item) => item.status as StoredStatus);
}

/**
 * The plan and every agbot's status together (the console's Deployments): one Query of the
 * policy's partition from `ROLLOUT`, which holds only these items past the policy's own.
 */
export async function rolloutWithStatuses(
  org: string,
  policy: string,
): Promise<{ rollout?: RolloutItem; statuses: StoredStatus[] }> {
  const items = await queryPartition({
    partition: deploymentPolicyKeys.record(org, policy).pk,
    prefix: rolloutKeys.plan(org, policy).sk,
  });
  const plan = items.find((item) => item.sk === rolloutKeys.plan(org, policy).sk);
  const statuses = items
    .filter((item) => String(item.sk).startsWith(rolloutKeys.statusPrefix))
    .map((item) => item.status as StoredStatus);
  if (!plan) return { statuses };
  const rollout = { plan: plan.plan, control: plan.control, lastUpdated: plan.lastUpdated } as RolloutItem;
  return { rollout, statuses };
}
