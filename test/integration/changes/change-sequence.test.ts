import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  type Change,
  forgetChangeSequence,
  maxChangeId,
  recordChanges,
  transactWriteWithChanges,
} from '#tables/changes';
import { documentClient, tableName } from '#tables/client';
import { changeRowKeys, keys } from '#tables/keys';
import { TransactionFailed } from '#tables/transact';
import { useTestTable } from '#test/support/table';

useTestTable();

const change = (org: string, id: string): Change => ({ org, id, resource: 'node', operation: 'created' });

/** Every row of an org's feed with an id ≥ `from`, oldest first. */
async function rowsFrom(org: string, from: number): Promise<number[]> {
  const ids: number[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: {
          ':pk': changeRowKeys.orgPartition(org),
          ':from': changeRowKeys.sortKeyFrom(from),
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    ids.push(...(page.Items ?? []).map((item) => item.changeId as number));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return ids;
}

describe('change ids (tables/changes.ts)', () => {
  it('hands 40 concurrent writers distinct ids with no gap, and a reader polling meanwhile sees each once, in order', async () => {
    const start = await maxChangeId();
    const seen: number[] = [];
    let writing = true;
    const reader = (async () => {
      let cursor = start + 1;
      while (writing || cursor <= (await maxChangeId())) {
        const fresh = await rowsFrom('seq', cursor);
        seen.push(...fresh);
        if (fresh.length > 0) cursor = (fresh.at(-1) as number) + 1;
      }
    })();
    const given = await Promise.all(
      Array.from({ length: 40 }, (_, i) => recordChanges([change('seq', `n${i}`)])),
    );
    writing = false;
    await reader;
    const ids = given.flat().sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => start + 1 + i));
    expect(seen).toEqual(ids);
    expect(await maxChangeId()).toBe(start + 40);
  });

  it('writes nothing, not even a change row, when a condition of the caller fails', async () => {
    const before = await maxChangeId();
    const failing = transactWriteWithChanges(
      [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.org('missing'),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      [change('rejected', 'x')],
    );
    await expect(failing).rejects.toEqual(new TransactionFailed([true]));
    expect(await maxChangeId()).toBe(before);
    expect(await rowsFrom('rejected', 0)).toEqual([]);
  });

  it('recovers from a stale guess (another instance moved the sequence) in one more attempt', async () => {
    const before = await maxChangeId();
    forgetChangeSequence();
    const [id] = await recordChanges([change('stale', 'x')]);
    expect(id).toBe(before + 1);
  });

  it('writes a public change into the public partition as well, with a 4-hour ttl', async () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const [id] = await recordChanges([{ ...change('pub', 's1'), resource: 'service', public: true }], now);
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: {
          ':pk': changeRowKeys.publicPartition,
          ':sk': changeRowKeys.sortKeyFrom(id as number),
        },
      }),
    );
    expect(page.Items?.[0]).toMatchObject({
      org: 'pub',
      id: 's1',
      resource: 'service',
      public: true,
      changeId: id,
    });
    expect(page.Items?.[0]?.ttl).toBe(now.getTime() / 1000 + 4 * 3600);
    expect(await rowsFrom('pub', id as number)).toEqual([id]);
  });
});
