import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type Change, type ChangeOperation, transactWriteWithChanges } from '../feed/changes.ts';
import { queryAll } from '../kernel/query-all.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { patternKeys } from './keys.ts';
import type { PatternRecord } from './records.ts';

/**
 * A pattern's keys (docs/exchange-catalog.md#pattern-keys: as service keys), in the pattern's partition. Each
 * write checks in its transaction that the pattern still exists, so a write racing a DELETE leaves
 * nothing behind that the DELETE's sweep misses; change rows are `patternkeys`.
 */
type Pattern = Pick<PatternRecord, 'org' | 'name' | 'public'>;
type Key = { pk: string; sk: string };

const KEY_PREFIX = patternKeys.keyPrefix;

const patternExists = (pattern: Pattern): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: patternKeys.record(pattern.org, pattern.name),
    ConditionExpression: 'attribute_exists(pk)',
  },
});

const change = (pattern: Pattern, operation: ChangeOperation): Change => ({
  org: pattern.org,
  id: pattern.name,
  resource: 'patternkeys',
  operation,
  public: pattern.public,
});

async function writeChecked(
  pattern: Pattern,
  items: TransactItem[],
  row: Change | undefined,
): Promise<boolean> {
  try {
    await transactWriteWithChanges([patternExists(pattern), ...items], row ? [row] : []);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

const queryKeys = (org: string, name: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': patternKeys.record(org, name).pk, ':prefix': KEY_PREFIX },
    ConsistentRead: true,
  });

export async function getPatternKey(pattern: Pattern, keyId: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: patternKeys.key(pattern.org, pattern.name, keyId),
      ConsistentRead: true,
    }),
  );
  return Item ? String(Item.key) : undefined;
}

/** Key ids, sorted. */
export const listPatternKeys = async (pattern: Pattern): Promise<string[]> =>
  (await queryKeys(pattern.org, pattern.name)).map((item) => String(item.keyId));

/** Upserts a key; false when the pattern is gone. */
export const putPatternKey = (pattern: Pattern, keyId: string, key: string, now: string): Promise<boolean> =>
  writeChecked(
    pattern,
    [
      {
        Put: {
          TableName: tableName(),
          Item: { ...patternKeys.key(pattern.org, pattern.name, keyId), keyId, key, lastUpdated: now },
        },
      },
    ],
    change(pattern, 'created/modified'),
  );

/** False when there was no such key (or pattern). */
export const deletePatternKey = (pattern: Pattern, keyId: string): Promise<boolean> =>
  writeChecked(
    pattern,
    [
      {
        Delete: {
          TableName: tableName(),
          Key: patternKeys.key(pattern.org, pattern.name, keyId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ],
    change(pattern, 'deleted'),
  );

const CHUNK = 90;

async function deleteKeys(
  found: Key[],
  write: (items: TransactItem[]) => Promise<boolean>,
): Promise<boolean> {
  for (let i = 0; i < found.length; i += CHUNK) {
    const chunk = found.slice(i, i + CHUNK).map((Key) => ({ Delete: { TableName: tableName(), Key } }));
    if (!(await write(chunk))) return false;
  }
  return true;
}

const keyOf = (item: Record<string, unknown>): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/** Deletes every key of the pattern, one change row per transaction; false when there were none. */
export async function deletePatternKeys(pattern: Pattern): Promise<boolean> {
  const found = (await queryKeys(pattern.org, pattern.name)).map(keyOf);
  if (found.length === 0) return false;
  return deleteKeys(found, (items) => writeChecked(pattern, items, change(pattern, 'deleted')));
}

/** After the pattern itself is deleted: sweeps the keys left in its partition (no change rows). */
export async function sweepPatternKeys(org: string, name: string): Promise<void> {
  const found = (await queryKeys(org, name)).map(keyOf);
  await deleteKeys(found, async (items) => {
    await transactWriteWithChanges(items, []);
    return true;
  });
}
