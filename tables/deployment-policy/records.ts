import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { deletePartition } from '../kernel/delete-partition.ts';
import { type ListReach, queryPages } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { ownerCountUpdate } from '../user/owner-counts.ts';
import { deploymentPolicyKeys } from './keys.ts';

/**
 * A deployment (business) policy (docs/exchange-catalog.md#deployment-policies): `BUSINESSPOL#<org>/<name>` /
 * `BUSINESSPOL`, listed in gsi1 `ORG#<org>#BUSINESSPOLS` by name. Policies are never public.
 */
export interface DeploymentPolicyRecord {
  org: string;
  name: string;
  owner: string;
  label: string;
  description: string;
  service: {
    name: string;
    org: string;
    arch: string;
    serviceVersions: Record<string, unknown>[];
    nodeHealth: Record<string, number>;
    clusterNamespace: string;
  };
  properties: Record<string, unknown>[];
  constraints: string[];
  userInput: Record<string, unknown>[];
  secretBinding: Record<string, unknown>[];
  created: string;
  lastUpdated: string;
}

/** The attributes PATCH may set, in upstream's order of precedence. */
export const PATCHABLE = [
  'constraints',
  'description',
  'label',
  'properties',
  'secretBinding',
  'service',
  'userInput',
] as const;
export type PatchableAttribute = (typeof PATCHABLE)[number];

const policyChange = (org: string, name: string, operation: ChangeOperation): Change => ({
  org,
  id: name,
  resource: 'policy',
  operation,
});

const item = (record: DeploymentPolicyRecord) => ({
  ...deploymentPolicyKeys.record(record.org, record.name),
  gsi1pk: deploymentPolicyKeys.orgIndex(record.org),
  gsi1sk: record.name,
  ...record,
});

/** The stored record without the table's keys. */
function toRecord(stored: Record<string, unknown>): DeploymentPolicyRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ...record } = stored;
  return record as unknown as DeploymentPolicyRecord;
}

export async function getDeploymentPolicy(
  org: string,
  name: string,
): Promise<DeploymentPolicyRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: deploymentPolicyKeys.record(org, name),
      ConsistentRead: true,
    }),
  );
  return Item && toRecord(Item);
}

/** The org's policies, by name (one gsi1 partition; within the list ceiling unless `reach` is `'all'`). */
export async function listDeploymentPolicies(
  org: string,
  reach: ListReach = 'capped',
): Promise<DeploymentPolicyRecord[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': deploymentPolicyKeys.orgIndex(org) },
    },
    reach,
  );
  return items.map(toRecord);
}

async function writeIfAllHold(items: TransactItem[], change: Change): Promise<boolean> {
  try {
    await transactWriteWithChanges(items, [change]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

type CreatePolicyOutcome = 'created' | 'exists' | 'no-org' | 'over-limit';

/**
 * Creates the policy only if absent, its org exists and its owner is below `maxOwned` policies
 * (0 = unlimited), with its owner's count and its change row.
 */
export async function createDeploymentPolicy(
  record: DeploymentPolicyRecord,
  maxOwned = 0,
): Promise<CreatePolicyOutcome> {
  try {
    await transactWriteWithChanges(
      [
        {
          Put: {
            TableName: tableName(),
            Item: item(record),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: orgKeys.record(record.org),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        ownerCountUpdate('BUSINESSPOL', record.owner, 1, maxOwned),
      ],
      [policyChange(record.org, record.name, 'created')],
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[0] ? 'exists' : error.failed[1] ? 'no-org' : 'over-limit';
  }
}

/** Replaces an existing policy (owner and created kept by the caller); false when it is gone. */
export const replaceDeploymentPolicy = (record: DeploymentPolicyRecord): Promise<boolean> =>
  writeIfAllHold(
    [{ Put: { TableName: tableName(), Item: item(record), ConditionExpression: 'attribute_exists(pk)' } }],
    policyChange(record.org, record.name, 'created/modified'),
  );

/** Sets one attribute and lastUpdated of an existing policy; false when it is gone. */
export const patchDeploymentPolicy = (
  org: string,
  name: string,
  attribute: PatchableAttribute,
  value: unknown,
  now: string,
): Promise<boolean> =>
  writeIfAllHold(
    [
      {
        Update: {
          TableName: tableName(),
          Key: deploymentPolicyKeys.record(org, name),
          UpdateExpression: 'SET #attr = :value, lastUpdated = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#attr': attribute },
          ExpressionAttributeValues: { ':value': value, ':now': now },
        },
      },
    ],
    policyChange(org, name, 'modified'),
  );

/**
 * Deletes a policy (only while its owner is as read, so the owner's count moves once), then what
 * its partition holds beside it (its rollout plan and statuses, docs/rollouts.md); false when it was gone.
 */
export async function deleteDeploymentPolicy(record: DeploymentPolicyRecord): Promise<boolean> {
  if (!(await deletePolicyRecord(record))) return false;
  await deletePartition(deploymentPolicyKeys.record(record.org, record.name).pk);
  return true;
}

const deletePolicyRecord = ({ org, name, owner }: DeploymentPolicyRecord): Promise<boolean> =>
  writeIfAllHold(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: deploymentPolicyKeys.record(org, name),
          ConditionExpression: 'attribute_exists(pk) AND #owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
        },
      },
      ownerCountUpdate('BUSINESSPOL', owner, -1),
    ],
    policyChange(org, name, 'deleted'),
  );
