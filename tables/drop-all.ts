import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { forgetChangeSequence } from './changes.ts';
import { documentClient, tableName } from './client.ts';
import { principalCache } from './principals.ts';

type Key = { pk: string; sk: string };

const SEGMENTS = 4;
const BATCH_SIZE = 25;
const MAX_RETRIES = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deletes up to 25 keys, retrying what DynamoDB leaves unprocessed (throttling) with backoff. */
async function deleteBatch(table: string, batch: Key[]): Promise<void> {
  let pending = batch.map((Key) => ({ DeleteRequest: { Key } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > MAX_RETRIES) throw new Error(`dropdb: ${pending.length} items could not be deleted`);
    if (attempt > 0) await sleep(25 * 2 ** attempt);
    const result = await documentClient.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
    pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
  }
}

async function dropSegment(table: string, segment: number): Promise<number> {
  let deleted = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: table,
        Segment: segment,
        TotalSegments: SEGMENTS,
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: startKey,
      }),
    );
    const keys = (page.Items ?? []) as Key[];
    for (let i = 0; i < keys.length; i += BATCH_SIZE) await deleteBatch(table, keys.slice(i, i + BATCH_SIZE));
    deleted += keys.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return deleted;
}

/**
 * Deletes every item of the table: `POST /v1/admin/dropdb` only, the one place a Scan is right
 * (the whole table is the point). Parallel segments keep a big table's drop within a request.
 */
export async function deleteAllItems(): Promise<number> {
  const table = tableName();
  principalCache.forgetAll();
  const counts = await Promise.all(
    Array.from({ length: SEGMENTS }, (_, segment) => dropSegment(table, segment)),
  );
  // Forgotten again: a request that read an identity meanwhile may have remembered it.
  principalCache.forgetAll();
  forgetChangeSequence();
  return counts.reduce((sum, count) => sum + count, 0);
}
