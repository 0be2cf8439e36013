import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';
import { type TransactItem, TransactionFailed, transactWrite } from './transact.ts';

/**
 * What the agbot's served patterns and served policies share: they live in the agbot's partition
 * under a sort-key prefix, are created only beside a live agbot, and are deleted a kind at a time.
 */
export type Key = { pk: string; sk: string };
export type CreateOutcome = 'created' | 'exists' | 'no-agbot';

const BATCH_SIZE = 25;
const MAX_BATCH_ATTEMPTS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `put` (which must carry its own "not already there" condition) in one transaction with a
 * check that the agbot still exists, so nothing is written beside an agbot deleted meanwhile.
 */
export async function putBesideAgbot(org: string, id: string, put: TransactItem): Promise<CreateOutcome> {
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.agbot(org, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      put,
    ]);
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionFailed)) throw error;
    return error.failed[0] ? 'no-agbot' : 'exists';
  }
}

/** Keys of the agbot's children whose sort key starts with `prefix` (consistent, all pages). */
export async function childKeys(org: string, id: string, prefix: string): Promise<Key[]> {
  const found: Key[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.agbot(org, id).pk, ':prefix': prefix },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...((page.Items ?? []) as Key[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/** Deletes keys 25 at a time, retrying what DynamoDB leaves unprocessed (throttling) with backoff. */
export async function deleteKeys(toDelete: Key[]): Promise<void> {
  const table = tableName();
  for (let i = 0; i < toDelete.length; i += BATCH_SIZE) {
    let pending = toDelete.slice(i, i + BATCH_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_BATCH_ATTEMPTS) throw new Error(`${pending.length} items could not be deleted`);
      if (attempt > 0) await sleep(20 * 2 ** attempt);
      const result = await documentClient.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
}

/** Deletes every child of one kind; resolves how many there were (0: nothing to delete). */
export async function deleteChildren(org: string, id: string, prefix: string): Promise<number> {
  const found = await childKeys(org, id, prefix);
  await deleteKeys(found);
  return found.length;
}
