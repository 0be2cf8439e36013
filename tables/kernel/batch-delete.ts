import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { sleep } from './sleep.ts';

export type Key = { pk: string; sk: string };

/** BatchWriteItem takes at most 25 requests. */
const BATCH_WRITE_SIZE = 25;
/** Sends of one chunk before giving up on what DynamoDB keeps leaving unprocessed. */
export const BATCH_ATTEMPTS = 8;
/** The pause before retry `attempt` (1, 2, …): 40 ms doubling to 2.56 s, about 5 s in all. */
export const batchBackoff = (attempt: number): number => 20 * 2 ** attempt;

export interface BatchDeleteDeps {
  send: (command: BatchWriteCommand) => Promise<BatchWriteCommandOutput>;
  sleep: (ms: number) => Promise<void>;
}

const realDeps: BatchDeleteDeps = { send: (command) => documentClient.send(command), sleep };

/**
 * Deletes `keys` 25 per BatchWriteItem, one chunk after the other; what DynamoDB leaves unprocessed
 * (throttling) is sent again after a backoff, and a chunk still unfinished after BATCH_ATTEMPTS
 * sends fails the whole delete. Only `pk` and `sk` of each key are sent, so whole items may be passed.
 */
export async function batchDelete(keys: Key[], deps: BatchDeleteDeps = realDeps): Promise<void> {
  const table = tableName();
  for (let start = 0; start < keys.length; start += BATCH_WRITE_SIZE) {
    let pending = keys
      .slice(start, start + BATCH_WRITE_SIZE)
      .map(({ pk, sk }) => ({ DeleteRequest: { Key: { pk, sk } } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= BATCH_ATTEMPTS)
        throw new Error(`batchDelete: ${pending.length} items could not be deleted`);
      if (attempt > 0) await deps.sleep(batchBackoff(attempt));
      const result = await deps.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  }
}
