import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#tables/client';

/**
 * Every item of this test file's table, read straight from DynamoDB Local (a test may Scan; the
 * Exchange never does), keyed by `pk | sk` and sorted, so that two snapshots compare with toEqual.
 */
export async function tableSnapshot(): Promise<Record<string, unknown>> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  const keyed = items.map((item) => [`${String(item.pk)} | ${String(item.sk)}`, item] as const);
  return Object.fromEntries(keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
