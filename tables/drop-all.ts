import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { forgetChangeSequence } from './changes.ts';
import { documentClient, tableName } from './client.ts';
import { batchDelete, type Key } from './kernel/batch-delete.ts';
import { principalCache } from './principals.ts';

const SEGMENTS = 4;

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
    await batchDelete(keys);
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
