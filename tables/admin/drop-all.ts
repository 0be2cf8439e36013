import { tableName } from '../client.ts';
import { forgetChangeSequence } from '../feed/changes.ts';
import { principalCache } from '../identity/principals.ts';
import { batchDelete, type Key } from '../kernel/batch-delete.ts';
import { pagesOfScan } from '../kernel/query-all.ts';

const SEGMENTS = 4;

async function dropSegment(table: string, segment: number): Promise<number> {
  let deleted = 0;
  const pages = pagesOfScan({
    TableName: table,
    Segment: segment,
    TotalSegments: SEGMENTS,
    ProjectionExpression: 'pk, sk',
  });
  // Page by page: a big table's keys are never all held at once.
  for await (const keys of pages) {
    await batchDelete(keys as Key[]);
    deleted += keys.length;
  }
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
