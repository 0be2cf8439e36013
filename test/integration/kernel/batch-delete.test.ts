import type { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { BATCH_ATTEMPTS, type BatchDeleteDeps, batchDelete } from '#tables/kernel/batch-delete';
import { partitionSortKeys } from '#test/support/partition';
import { useTestTable } from '#test/support/table';
import { putItems } from './fixtures.ts';

useTestTable();

const keysOf = (pk: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ pk, sk: `ITEM#${String(i).padStart(3, '0')}` }));

/**
 * The real table behind a throttling DynamoDB: each request sends only its first `through`
 * deletes on and answers the rest as unprocessed, the way a throttled BatchWriteItem does.
 */
function throttled(through: number) {
  const sent: number[] = [];
  const pauses: number[] = [];
  const deps: BatchDeleteDeps = {
    send: async (command: BatchWriteCommand) => {
      const requests = command.input.RequestItems?.[tableName()] ?? [];
      sent.push(requests.length);
      const passed = requests.slice(0, through);
      const left = requests.slice(through);
      if (passed.length > 0) {
        command.input.RequestItems = { [tableName()]: passed };
        await documentClient.send(command);
      }
      return { UnprocessedItems: left.length > 0 ? { [tableName()]: left } : {}, $metadata: {} };
    },
    sleep: async (ms) => {
      pauses.push(ms);
    },
  };
  return { deps, sent, pauses };
}

describe('batchDelete', () => {
  it('deletes any number of keys, 25 per BatchWriteItem', async () => {
    await putItems('KERNEL#many', 60);
    await putItems('KERNEL#other', 1);
    await batchDelete(keysOf('KERNEL#many', 60));
    expect(await partitionSortKeys('KERNEL#many')).toEqual([]);
    expect(await partitionSortKeys('KERNEL#other')).toEqual(['ITEM#000']);
  });

  it('sends only pk and sk, so whole items can be passed', async () => {
    await putItems('KERNEL#items', 3);
    await batchDelete(keysOf('KERNEL#items', 3).map((key) => ({ ...key, other: 'attribute' })));
    expect(await partitionSortKeys('KERNEL#items')).toEqual([]);
  });

  it('does nothing for no keys', async () => {
    const { deps, sent } = throttled(25);
    await batchDelete([], deps);
    expect(sent).toEqual([]);
  });

  it('sends what DynamoDB left unprocessed again, after a doubling pause', async () => {
    await putItems('KERNEL#throttled', 30);
    const { deps, sent, pauses } = throttled(10);
    await batchDelete(keysOf('KERNEL#throttled', 30), deps);
    expect(await partitionSortKeys('KERNEL#throttled')).toEqual([]);
    // First chunk: 25, 15, 5 left to send; second chunk: 5.
    expect(sent).toEqual([25, 15, 5, 5]);
    expect(pauses).toEqual([40, 80]);
  });

  it('gives up after a bounded number of sends when DynamoDB keeps everything unprocessed', async () => {
    await putItems('KERNEL#stuck', 2);
    const { deps, sent } = throttled(0);
    await expect(batchDelete(keysOf('KERNEL#stuck', 2), deps)).rejects.toThrow(
      'batchDelete: 2 items could not be deleted',
    );
    expect(sent).toHaveLength(BATCH_ATTEMPTS);
    expect(await partitionSortKeys('KERNEL#stuck')).toHaveLength(2);
  });
});
