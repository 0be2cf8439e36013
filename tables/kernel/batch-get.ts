import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { BATCH_ATTEMPTS, batchBackoff, type Key } from './batch-delete.ts';
import { sleep } from './sleep.ts';

type Item = Record<string, unknown>;

/** BatchGetItem takes at most 100 keys. */
const BATCH_GET_SIZE = 100;

/**
 * The items found at `keys` (strongly consistent), 100 keys per BatchGetItem; keys DynamoDB leaves
 * unprocessed are asked again with batchDelete's backoff, and a chunk still unfinished after
 * BATCH_ATTEMPTS sends fails the read. Items come back in no particular order; missing ones are absent.
 */
export async function batchGet(keys: Key[]): Promise<Item[]> {
  const table = tableName();
  const found: Item[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_SIZE) {
    let pending: Item[] = keys.slice(start, start + BATCH_GET_SIZE);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= BATCH_ATTEMPTS)
        throw new Error(`batchGet: DynamoDB left ${pending.length} keys unprocessed`);
      if (attempt > 0) await sleep(batchBackoff(attempt));
      const result = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...(result.Responses?.[table] ?? []));
      pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return found;
}
