import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoCallCount, tableName } from '#tables/client';
import { pagesOfQuery, pagesOfScan, queryAll } from '#tables/kernel/query-all';
import { useTestTable } from '#test/support/table';
import { putItems } from './fixtures.ts';

useTestTable();

/** A Query of partition `KERNEL#pages`, 10 items a page so that 35 items take four pages. */
const input = {
  TableName: tableName(),
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': 'KERNEL#pages' },
  Limit: 10,
};

beforeAll(async () => {
  await putItems('KERNEL#pages', 35);
});

describe('queryAll', () => {
  it('reads every page, in key order', async () => {
    const before = dynamoCallCount();
    const items = await queryAll(input);
    expect(items.map((item) => item.i)).toEqual(Array.from({ length: 35 }, (_, i) => i));
    expect(dynamoCallCount() - before).toBe(4);
  });

  it('reads at most maxPages pages when given a budget', async () => {
    const before = dynamoCallCount();
    expect(await queryAll(input, { maxPages: 2 })).toHaveLength(20);
    expect(dynamoCallCount() - before).toBe(2);
  });

  it('answers an empty partition with one Query', async () => {
    const before = dynamoCallCount();
    expect(await queryAll({ ...input, ExpressionAttributeValues: { ':pk': 'KERNEL#none' } })).toEqual([]);
    expect(dynamoCallCount() - before).toBe(1);
  });
});

describe('pagesOfQuery and pagesOfScan', () => {
  it('yield page by page, and read no further page once the caller stops', async () => {
    const before = dynamoCallCount();
    const sizes: number[] = [];
    for await (const page of pagesOfQuery(input)) {
      sizes.push(page.length);
      if (sizes.length === 2) break;
    }
    expect(sizes).toEqual([10, 10]);
    expect(dynamoCallCount() - before).toBe(2);
  });

  it('scan every page of the table', async () => {
    const found: unknown[] = [];
    const scan = {
      TableName: tableName(),
      FilterExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'KERNEL#pages' },
      Limit: 10,
    };
    for await (const page of pagesOfScan(scan)) found.push(...page);
    expect(found).toHaveLength(35);
  });
});
