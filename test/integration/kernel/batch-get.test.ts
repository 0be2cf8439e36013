import { describe, expect, it } from 'vitest';
import { dynamoCallCount } from '#tables/client';
import { batchGet } from '#tables/kernel/batch-get';
import { useTestTable } from '#test/support/table';
import { putItems } from './fixtures.ts';

useTestTable();

const key = (i: number) => ({ pk: 'KERNEL#get', sk: `ITEM#${String(i).padStart(3, '0')}` });

describe('batchGet', () => {
  it('answers the items found, leaving out missing ones, 100 keys per BatchGetItem', async () => {
    await putItems('KERNEL#get', 150);
    const wanted = [...Array.from({ length: 150 }, (_, i) => key(i)), { pk: 'KERNEL#get', sk: 'MISSING' }];
    const before = dynamoCallCount();
    const found = await batchGet(wanted);
    expect(dynamoCallCount() - before).toBe(2);
    expect(found.map((item) => item.i).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 150 }, (_, i) => i),
    );
  });

  it('sends nothing for no keys', async () => {
    const before = dynamoCallCount();
    expect(await batchGet([])).toEqual([]);
    expect(dynamoCallCount() - before).toBe(0);
  });
});
