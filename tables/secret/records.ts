import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SealedValue } from '#lib/secrets/envelope';
import { documentClient, tableName } from '../client.ts';
import { type Change, transactWriteWithChanges } from '../feed/changes.ts';
import { batchDelete, type Key } from '../kernel/batch-delete.ts';
import { type ListReach, queryPages } from '../kernel/list-ceiling.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { secretKeys } from './keys.ts';

/**
 * The secrets manager's records: `SECRETS#<org>` / `<full name>`, one partition per org, so a
 * list is one Query and an org's delete one partition. Node-bound secrets (`node/N/…`,
 * `user/U/node/N/…`) also carry gsi1 `ORG#<org>#NODE#<N>#SECRETS` so deleting the node finds them;
 * a user's are the sort-key prefix `user/<U>/`. Only the sealed value is stored, never plaintext.
 */
interface SecretRecord {
  org: string;
  name: string;
  sealed: SealedValue;
  created: string;
  lastUpdated: string;
}

export interface SecretSummary {
  name: string;
  lastUpdated: string;
}

const secretChange = (org: string, name: string, operation: Change['operation']): Change => ({
  org,
  id: name,
  resource: 'secret',
  operation,
});

/** Creates or overwrites a secret (keeping its creation time) with its change row, in one transaction. */
export async function putSecret(
  record: { org: string; name: string; sealed: SealedValue; node?: string },
  now: string,
): Promise<void> {
  const item: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: secretKeys.record(record.org, record.name),
      UpdateExpression:
        'SET #org = :org, #name = :name, sealed = :sealed, created = if_not_exists(created, :now), lastUpdated = :now' +
        (record.node ? ', gsi1pk = :gsi1pk, gsi1sk = :name' : ''),
      ExpressionAttributeNames: { '#org': 'org', '#name': 'name' },
      ExpressionAttributeValues: {
        ':org': record.org,
        ':name': record.name,
        ':sealed': record.sealed,
        ':now': now,
        ...(record.node ? { ':gsi1pk': secretKeys.nodeIndex(record.org, record.node) } : {}),
      },
    },
  };
  await transactWriteWithChanges([item], [secretChange(record.org, record.name, 'created/modified')]);
}

export async function getSecret(org: string, name: string): Promise<SecretRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: secretKeys.record(org, name), ConsistentRead: true }),
  );
  return Item && (Item as unknown as SecretRecord);
}

/** Deletes one secret with its change row; false when there was none. */
export async function deleteSecret(org: string, name: string): Promise<boolean> {
  const item: TransactItem = {
    Delete: {
      TableName: tableName(),
      Key: secretKeys.record(org, name),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
  try {
    await transactWriteWithChanges([item], [secretChange(org, name, 'deleted')]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

async function querySecrets(
  input: { index?: 'gsi1'; partition: string; prefix?: string },
  reach: ListReach,
): Promise<Record<string, unknown>[]> {
  const key = input.index ? 'gsi1pk' : 'pk';
  const sort = input.index ? 'gsi1sk' : 'sk';
  return queryPages(
    {
      TableName: tableName(),
      IndexName: input.index,
      KeyConditionExpression: `${key} = :pk${input.prefix ? ` AND begins_with(${sort}, :prefix)` : ''}`,
      ExpressionAttributeValues: {
        ':pk': input.partition,
        ...(input.prefix ? { ':prefix': input.prefix } : {}),
      },
      // Names and times only: a list never reads a sealed value.
      ProjectionExpression: 'pk, sk, lastUpdated',
      ConsistentRead: input.index ? undefined : true,
    },
    reach,
  );
}

/**
 * The org's secret names starting with `prefix` (all when empty), sorted, with their update times;
 * within the list ceiling.
 */
export async function listSecrets(org: string, prefix = ''): Promise<SecretSummary[]> {
  const items = await querySecrets(
    { partition: secretKeys.record(org, '').pk, prefix: prefix || undefined },
    'capped',
  );
  return items.map((item) => ({ name: String(item.sk), lastUpdated: String(item.lastUpdated) }));
}

const keysOf = (items: Record<string, unknown>[]): Key[] =>
  items.map(({ pk, sk }) => ({ pk: String(pk), sk: String(sk) }));

/** Cascades (no Scan): every secret of an org, of a user (`user/<U>/…`), of a node (gsi1). */
export const deleteOrgSecrets = async (org: string): Promise<void> =>
  batchDelete(keysOf(await querySecrets({ partition: secretKeys.record(org, '').pk }, 'all')));

export const deleteUserSecrets = async (org: string, user: string): Promise<void> =>
  batchDelete(
    keysOf(await querySecrets({ partition: secretKeys.record(org, '').pk, prefix: `user/${user}/` }, 'all')),
  );

export const deleteNodeSecrets = async (org: string, node: string): Promise<void> =>
  batchDelete(
    keysOf(await querySecrets({ index: 'gsi1', partition: secretKeys.nodeIndex(org, node) }, 'all')),
  );
