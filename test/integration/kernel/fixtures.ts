import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';

/** `count` items in partition `pk` with sort keys `ITEM#000`, `ITEM#001`, … (25 per BatchWriteItem). */
export async function putItems(pk: string, count: number): Promise<void> {
  const items = Array.from({ length: count }, (_, i) => ({
    pk,
    sk: `ITEM#${String(i).padStart(3, '0')}`,
    i,
  }));
  for (let start = 0; start < items.length; start += 25) {
    const requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    await documentClient.send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
  }
}
