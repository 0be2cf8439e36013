import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import {
  type Change,
  forgetChangeSequence,
  maxChangeId,
  NODE_NUMBERING_GRACE_MS,
  recordChanges,
  sequencePendingChanges,
  transactWriteWithChanges,
} from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';
import { TransactionFailed } from '#tables/kernel/transact';
import { orgKeys } from '#tables/keys/org';
import { feedRows, orgChangeRows } from '#test/support/changes';
import { useTestTable } from '#test/support/table';

useTestTable();

const change = (org: string, id: string): Change => ({ org, id, resource: 'node', operation: 'created' });

/** Ids of an org's numbered rows with id ≥ `from`, WITHOUT numbering pending rows first. */
async function numberedFrom(org: string, from: number): Promise<number[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk >= :from',
      ExpressionAttributeValues: {
        ':pk': feedKeys.orgPartition(org),
        ':from': feedKeys.sortKeyFrom(from),
      },
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => item.changeId as number);
}

/** The pending rows' keys, oldest first: the partition also holds the feed's head (`#HEAD`), which sorts before them. */
const pendingRows = async () =>
  (
    await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk > :head',
        ExpressionAttributeValues: { ':pk': feedKeys.pendingPartition, ':head': feedKeys.head().sk },
        ConsistentRead: true,
        ProjectionExpression: 'pk, sk',
      }),
    )
  ).Items ?? [];

const pendingCount = async () => (await pendingRows()).length;

describe('the change feed’s numbering (tables/feed/changes.ts)', () => {
  it('numbers 60 concurrent writes once each, in commit order, while 3 readers sequence and read meanwhile', async () => {
    const start = await maxChangeId();
    let writing = true;
    const reader = async () => {
      const seen: number[] = [];
      let cursor = start + 1;
      while (writing || (await pendingCount()) !== 0) {
        await sequencePendingChanges();
        const fresh = await numberedFrom('seq', cursor);
        seen.push(...fresh);
        if (fresh.length > 0) cursor = (fresh.at(-1) as number) + 1;
      }
      seen.push(...(await numberedFrom('seq', cursor)));
      return seen;
    };
    const readers = [reader(), reader(), reader()];
    await Promise.all(Array.from({ length: 60 }, (_, i) => recordChanges([change('seq', `n${i}`)])));
    writing = false;
    const seenByEach = await Promise.all(readers);
    const expected = Array.from({ length: 60 }, (_, i) => start + 1 + i);
    for (const seen of seenByEach) expect(seen).toEqual(expected);
    const rows = await orgChangeRows('seq');
    expect(new Set(rows.map((row) => row.id)).size).toBe(60);
    expect(await maxChangeId()).toBe(start + 60);
    expect(await pendingCount()).toBe(0);
  });

  it('writes nothing, not even a pending row, when a condition of the caller fails', async () => {
    const before = await maxChangeId();
    const failing = transactWriteWithChanges(
      [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: orgKeys.record('missing'),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ],
      [change('rejected', 'x')],
    );
    await expect(failing).rejects.toEqual(new TransactionFailed([true]));
    expect(await pendingCount()).toBe(0);
    expect(await maxChangeId()).toBe(before);
    expect(await orgChangeRows('rejected')).toEqual([]);
  });

  it('recovers from a stale guess of the sequence (another instance moved it)', async () => {
    const before = await maxChangeId();
    forgetChangeSequence();
    await recordChanges([change('stale', 'x')]);
    expect(await maxChangeId()).toBe(before + 1);
    expect((await orgChangeRows('stale')).map((row) => row.changeId)).toEqual([before + 1]);
  });

  it('copies each row to the all-orgs partition, a public one to the public partition, with a 4-hour ttl', async () => {
    const now = new Date('2026-11-23T12:00:00Z');
    await recordChanges(
      [{ ...change('pub', 's1'), resource: 'service', public: true }, change('pub', 'n1')],
      now,
    );
    const [publicRow, privateRow] = await orgChangeRows('pub');
    expect(publicRow).toMatchObject({
      org: 'pub',
      id: 's1',
      resource: 'service',
      public: true,
      lastUpdated: now.toISOString(),
    });
    expect(publicRow?.ttl).toBe(now.getTime() / 1000 + 4 * 3600);
    expect(privateRow).toMatchObject({
      id: 'n1',
      public: false,
      changeId: (publicRow?.changeId as number) + 1,
    });
    const publicIds = (await feedRows(feedKeys.publicPartition)).map((row) => row.changeId);
    expect(publicIds).toContain(publicRow?.changeId);
    expect(publicIds).not.toContain(privateRow?.changeId);
    const allIds = (await feedRows(feedKeys.allPartition)).map((row) => row.changeId);
    expect(allIds).toEqual(expect.arrayContaining([publicRow?.changeId, privateRow?.changeId]));
  });

  it('numbers a backlog larger than one transaction (60 pending rows, 24 per batch)', async () => {
    const before = await maxChangeId();
    await recordChanges(Array.from({ length: 30 }, (_, i) => change('backlog', `a${i}`)));
    await recordChanges(Array.from({ length: 30 }, (_, i) => change('backlog', `b${i}`)));
    expect(await pendingCount()).toBe(60);
    await sequencePendingChanges();
    expect(await pendingCount()).toBe(0);
    expect((await orgChangeRows('backlog')).map((row) => row.changeId)).toEqual(
      Array.from({ length: 60 }, (_, i) => before + 1 + i),
    );
  });
  it('numbers each caller’s own write before answering it: 20 callers write, then read, over a backlog of 100', async () => {
    await recordChanges(Array.from({ length: 100 }, (_, i) => change('backlog100', `b${i}`)));
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await recordChanges([change('own', `c${i}`)]);
        return { id: `c${i}`, newest: await sequencePendingChanges() };
      }),
    );
    const rows = await orgChangeRows('own');
    for (const { id, newest } of answers) {
      const row = rows.find((r) => r.id === id);
      expect(row, id).toBeDefined();
      expect(row?.changeId, `${id} answered ${newest}`).toBeLessThanOrEqual(newest);
    }
    // Every call gave the numbering lease up on its way out.
    expect((await feedHead())?.numberer).toBeUndefined();
  });

  it('answers once its own rows are numbered, while another reader still holds the lease', async () => {
    const ghost = 'a reader numbering a long backlog';
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'SET numberer = :ghost, leasedUntil = :until',
        ExpressionAttributeValues: { ':ghost': ghost, ':until': Date.now() + 10 * 60_000 },
      }),
    );
    await recordChanges([change('watched', 'x')]);
    const [pending] = (await pendingRows()) as [{ pk: string; sk: string }];
    const calls = dynamoCallCount();
    const answer = sequencePendingChanges();
    // Once the reader has found its row pending and looked again, the holder takes the row.
    await expect.poll(() => dynamoCallCount() - calls, { interval: 5 }).toBeGreaterThanOrEqual(2);
    await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: pending }));
    // Answered with the lease still held: waiting for it to be given up would end in a timeout.
    await expect(answer).resolves.toBeGreaterThanOrEqual(0);
    expect((await feedHead())?.numberer).toBe(ghost);
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'REMOVE numberer, leasedUntil',
      }),
    );
  });

  it('without waiting for others: leaves a row just written to the dispatcher, numbers one that waited past the grace when the lease is free', async () => {
    const before = await maxChangeId();
    const ghost = 'a reader numbering a long backlog';
    const setLease = (until: number) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: feedKeys.head(),
          UpdateExpression: 'SET numberer = :ghost, leasedUntil = :until',
          ExpressionAttributeValues: { ':ghost': ghost, ':until': until },
        }),
      );
    await recordChanges([change('fresh', 'x')]);
    const calls = dynamoCallCount();
    // One look at the head and the oldest pending row: it is new, so the dispatcher numbers it.
    expect(await sequencePendingChanges({ waitForOthers: false })).toBe(before);
    expect(dynamoCallCount() - calls).toBe(1);
    expect(await pendingCount()).toBe(1);
    await sequencePendingChanges(); // as the dispatcher does
    // A row written longer than the grace ago, while another reader holds the lease: answered at once.
    const overdue = new Date(Date.now() - NODE_NUMBERING_GRACE_MS - 1_000);
    await setLease(Date.now() + 10 * 60_000);
    await recordChanges([change('overdue', 'x')], overdue);
    expect(await sequencePendingChanges({ waitForOthers: false })).toBe(before + 1);
    expect(await pendingCount()).toBe(1);
    // The lease given up: the same call numbers the row, as any reader does.
    await setLease(0);
    expect(await sequencePendingChanges({ waitForOthers: false })).toBe(before + 2);
    expect((await orgChangeRows('overdue')).map((row) => row.changeId)).toEqual([before + 2]);
    expect((await feedHead())?.numberer).toBeUndefined();
  });

  it('waits out a lease whose holder stopped answering, then numbers the rows itself', async () => {
    const before = await maxChangeId();
    const lapsesAt = Date.now() + 1_500;
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'SET numberer = :ghost, leasedUntil = :until',
        ExpressionAttributeValues: { ':ghost': 'a reader that crashed', ':until': lapsesAt },
      }),
    );
    await recordChanges([change('lapsed', 'x')]);
    expect(await sequencePendingChanges()).toBe(before + 1);
    expect(Date.now()).toBeGreaterThanOrEqual(lapsesAt);
    expect((await orgChangeRows('lapsed')).map((row) => row.changeId)).toEqual([before + 1]);
    expect((await feedHead())?.numberer).toBeUndefined();
  });
});

const feedHead = async () =>
  (
    await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: feedKeys.head(), ConsistentRead: true }),
    )
  ).Item;
