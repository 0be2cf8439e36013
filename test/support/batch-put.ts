import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';

/**
 * Writes items straight to the test's table, 25 to a BatchWriteItem, `lanes` batches at a time,
 * sending again what DynamoDB left unprocessed: seeding many rows in a few calls where writing
 * each through its handler would cost thousands (and, beside a full run's other files, minutes).
 */
export async function batchPut(items: Record<string, unknown>[], lanes = 1): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  const lane = async () => {
    for (let batch = batches.shift(); batch; batch = batches.shift()) {
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await documentClient.send(
          new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
        );
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
