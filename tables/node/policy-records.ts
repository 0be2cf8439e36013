import { type FormattedItem, PutTransaction } from 'dynamodb-toolbox';
import { tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';
import { NodePolicyEntity, nodePolicyRepository } from './policy-entity.ts';
import { type NodeChanges, setNodeFields } from './records.ts';

export type NodePolicyRecord = FormattedItem<typeof NodePolicyEntity>;

export async function getNodePolicy(org: string, id: string): Promise<NodePolicyRecord | undefined> {
  const { Item } = await nodePolicyRepository.get({ org, id }, { consistent: true });
  return Item;
}

/** Runs `items` with the node's `nodepolicies` change row; false when any condition failed. */
async function writeIfAllHold(items: TransactItem[], change: Change): Promise<boolean> {
  try {
    await transactWriteWithChanges(items, [change]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/**
 * Stores the policy beside its node and stamps the node (`nodeFields`: lastUpdated, maybe
 * lastHeartbeat) in one transaction; false when the node does not exist, and then nothing is written.
 */
export function putNodePolicy(policy: NodePolicyRecord, nodeFields: NodeChanges): Promise<boolean> {
  return writeIfAllHold(
    [
      setNodeFields(policy.org, policy.id, nodeFields),
      NodePolicyEntity.build(PutTransaction).item(policy).params(),
    ],
    { org: policy.org, id: policy.id, resource: 'nodepolicies', operation: 'created/modified' },
  );
}

/** Deletes the policy and stamps its node in one transaction; false when there is no policy (or node). */
export function deleteNodePolicy(org: string, id: string, nodeFields: NodeChanges): Promise<boolean> {
  return writeIfAllHold(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: nodeKeys.policy(org, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      setNodeFields(org, id, nodeFields),
    ],
    { org, id, resource: 'nodepolicies', operation: 'deleted' },
  );
}
