import {
  Entity,
  type FormattedItem,
  GetItemCommand,
  item,
  map,
  PutTransaction,
  QueryCommand,
  string,
} from 'dynamodb-toolbox';
import { tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { maxPagesFor, withinCeiling } from '../kernel/list-ceiling.ts';
import { TransactionFailed } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';
import { managementPolicyKeys } from '../management-policy/keys.ts';
import { ExchangeTable } from '../table.ts';

const statusSchema = item({
  org: string().key(),
  id: string().key(),
  /** `<org>/<management policy name>`. */
  policy: string().key(),
  scheduledTime: string().default(''),
  startTime: string().default(''),
  endTime: string().default(''),
  upgradedVersions: map({
    softwareVersion: string().default(''),
    certVersion: string().default(''),
    configVersion: string().default(''),
  }).default({ softwareVersion: '', certVersion: '', configVersion: '' }),
  status: string().default(''),
  errorMessage: string().default(''),
  lastUpdated: string(),
});

/**
 * The status of one management policy (agent upgrade job) on one node:
 * `NODE#<org>/<id>` / `MGMTSTATUS#<org>/<policy>`, in the node's partition so the node's DELETE
 * removes it and one Query lists a node's statuses; listed in gsi1 `MGMTPOL#<org>/<policy>#STATUSES`
 * by node id, so the policy's DELETE finds the statuses that hang on it.
 */
const NodeManagementStatusEntity = new Entity({
  name: 'nodeManagementStatus',
  table: ExchangeTable,
  timestamps: false,
  schema: statusSchema.and((prev) => ({
    gsi1pk: string()
      .hidden()
      .link<typeof prev>(({ policy }) => managementPolicyKeys.statusIndex(policy)),
    gsi1sk: string()
      .hidden()
      .link<typeof prev>(({ id }) => id),
  })),
  computeKey: ({ org, id, policy }: { org: string; id: string; policy: string }) =>
    nodeKeys.managementStatus(org, id, policy),
});

export type NodeManagementStatusRecord = FormattedItem<typeof NodeManagementStatusEntity>;

/** A node's statuses, ordered by policy (one Query of the node's partition, consistent; within the list ceiling). */
export async function listManagementStatuses(org: string, id: string): Promise<NodeManagementStatusRecord[]> {
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .entities(NodeManagementStatusEntity)
    .query({
      partition: nodeKeys.record(org, id).pk,
      range: { beginsWith: nodeKeys.childPrefix.managementStatus },
    })
    .options({ consistent: true, maxPages: maxPagesFor('capped') })
    .send();
  return withinCeiling(Items, 'capped');
}

export async function getManagementStatus(
  org: string,
  id: string,
  policy: string,
): Promise<NodeManagementStatusRecord | undefined> {
  const { Item } = await NodeManagementStatusEntity.build(GetItemCommand)
    .key({ org, id, policy })
    .options({ consistent: true })
    .send();
  return Item;
}

/**
 * Creates or replaces a status, only while its node and its management policy exist, the policy
 * not being deleted (one transaction: a status never outlives either, as upstream's foreign keys
 * ensure). The policy is `<org>/<name>` of the node's org.
 */
export async function putManagementStatus(
  status: NodeManagementStatusRecord,
): Promise<'stored' | 'no-node' | 'no-policy'> {
  const slash = status.policy.indexOf('/');
  const policyKey = managementPolicyKeys.record(
    status.policy.slice(0, slash),
    status.policy.slice(slash + 1),
  );
  try {
    await transactWriteWithChanges(
      [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: nodeKeys.record(status.org, status.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: policyKey,
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        NodeManagementStatusEntity.build(PutTransaction).item(status).params(),
      ],
      [statusChange(status.org, status.id, 'created/modified')],
    );
    return 'stored';
  } catch (error) {
    if (error instanceof TransactionFailed) return error.failed[0] ? 'no-node' : 'no-policy';
    throw error;
  }
}

/** Deletes a status; false when there was none. */
export async function deleteManagementStatus(org: string, id: string, policy: string): Promise<boolean> {
  try {
    await transactWriteWithChanges(
      [
        {
          Delete: {
            TableName: tableName(),
            Key: nodeKeys.managementStatus(org, id, policy),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      [statusChange(org, id, 'deleted')],
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/** The feed row of a management-status write (upstream's resource `nodemgmtpolstatus`, id = the node). */
const statusChange = (org: string, id: string, operation: ChangeOperation): Change => ({
  org,
  id,
  resource: 'nodemgmtpolstatus',
  operation,
});
