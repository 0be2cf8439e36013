import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { type ListReach, queryPages } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { ownerCountUpdate } from '../user/owner-counts.ts';
import { managementPolicyKeys } from './keys.ts';

/**
 * A node management policy (docs/nmp.md#the-exchange): `MGMTPOL#<org>/<name>` / `MGMTPOL`, listed
 * in gsi1 `ORG#<org>#MGMTPOLS` by name. Never public. `deleting` is set while its delete removes
 * the node statuses that hang on it: a status can no longer be written, nor the policy replaced.
 */
export interface ManagementPolicyRecord {
  org: string;
  name: string;
  owner: string;
  label: string;
  description: string;
  constraints: string[];
  properties: Record<string, unknown>[];
  patterns: string[];
  enabled: boolean;
  start: string;
  startWindow: number;
  allowDowngrade: boolean;
  manifest: string;
  created: string;
  lastUpdated: string;
  deleting?: boolean;
}

/** Upstream's change row: category and resource `mgmtpolicy`, id the bare name, never public. */
const policyChange = (org: string, name: string, operation: ChangeOperation): Change => ({
  org,
  id: name,
  resource: 'mgmtpolicy',
  operation,
});

const item = (record: ManagementPolicyRecord) => ({
  ...managementPolicyKeys.record(record.org, record.name),
  gsi1pk: managementPolicyKeys.orgIndex(record.org),
  gsi1sk: record.name,
  ...record,
});

function toRecord(stored: Record<string, unknown>): ManagementPolicyRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ...record } = stored;
  return record as unknown as ManagementPolicyRecord;
}

export async function getManagementPolicy(
  org: string,
  name: string,
): Promise<ManagementPolicyRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: managementPolicyKeys.record(org, name),
      ConsistentRead: true,
    }),
  );
  return Item && toRecord(Item);
}

/** The org's policies, by name (one gsi1 partition; within the list ceiling unless `reach` is `'all'`). */
export async function listManagementPolicies(
  org: string,
  reach: ListReach = 'capped',
): Promise<ManagementPolicyRecord[]> {
  const items = await queryPages(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': managementPolicyKeys.orgIndex(org) },
    },
    reach,
  );
  return items.map(toRecord);
}

type CreateOutcome = 'created' | 'exists' | 'no-org' | 'over-limit';

/**
 * Creates the policy only if absent, its org exists and its owner is below `maxOwned` policies
 * (0 = unlimited), with its owner's count and its change row, in one transaction.
 */
export async function createManagementPolicy(
  record: ManagementPolicyRecord,
  maxOwned = 0,
): Promise<CreateOutcome> {
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
        ownerCountUpdate('MGMTPOL', record.owner, 1, maxOwned),
      ],
      [policyChange(record.org, record.name, 'created')],
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[0] ? 'exists' : error.failed[1] ? 'no-org' : 'over-limit';
  }
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

/** Replaces a policy that exists and is not being deleted (owner and created kept by the caller). */
export const replaceManagementPolicy = (record: ManagementPolicyRecord): Promise<boolean> =>
  writeIfAllHold(
    [
      {
        Put: {
          TableName: tableName(),
          Item: item(record),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
        },
      },
    ],
    policyChange(record.org, record.name, 'modified'),
  );

/** Marks the policy `deleting` (first step of its delete); false when it does not exist. */
export async function markDeleting(org: string, name: string): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: managementPolicyKeys.record(org, name),
        UpdateExpression: 'SET deleting = :yes',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Deletes the record (last step), off its owner's count, with its change row; false when gone. */
export const deleteManagementPolicyRecord = ({
  org,
  name,
  owner,
}: ManagementPolicyRecord): Promise<boolean> =>
  writeIfAllHold(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: managementPolicyKeys.record(org, name),
          ConditionExpression: 'attribute_exists(pk) AND #owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
        },
      },
      ownerCountUpdate('MGMTPOL', owner, -1),
    ],
    policyChange(org, name, 'deleted'),
  );
