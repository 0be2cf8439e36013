import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { orgKeys } from '#tables/keys/org';
import { getOrgCounts } from '#tables/org/stats';
import { type CountedRecord, countFromStream } from '#tables/org/stream-counts';
import { createOrg } from '#test/support/identities';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';

/**
 * The org counters of messages and agreements, moved from the table's stream by the stack's
 * consumer (tables/org/stream-counts.ts; here test/support/stream-counts.ts runs it on this file's
 * table, through the real stream and the dispatcher's own filter and handler).
 */
useTestTable();
const counting = useStreamCounts();
const { orgCounts } = counting;

const put = (key: { pk: string; sk: string }) =>
  documentClient.send(new PutCommand({ TableName: tableName(), Item: { ...key, message: 'm' } }));
const remove = (key: { pk: string; sk: string }) =>
  documentClient.send(new DeleteCommand({ TableName: tableName(), Key: key }));

describe('counters from the stream', () => {
  it('counts an item however it is written or removed: a delete no request made (DynamoDB`s TTL) uncounts it', async () => {
    await createOrg('ttl');
    const before = await orgCounts('ttl');
    await put(nodeKeys.message('ttl', 'n1', 1));
    await put(nodeKeys.message('ttl', 'n1', 2));
    await put(agbotKeys.agreement('ttl', 'ab', 'a1'));
    expect(await orgCounts('ttl')).toMatchObject({
      nodeMsgs: before.nodeMsgs + 2,
      agbotAgreements: before.agbotAgreements + 1,
    });
    await remove(nodeKeys.message('ttl', 'n1', 1));
    await remove(agbotKeys.agreement('ttl', 'ab', 'a1'));
    expect(await orgCounts('ttl')).toMatchObject({
      nodeMsgs: before.nodeMsgs + 1,
      agbotAgreements: before.agbotAgreements,
    });
  });

  // The consumer is invoked at least once per record: the same batch again must not count twice.
  it('counts a batch delivered twice once', async () => {
    await createOrg('twice');
    await counting.settled();
    const batch: CountedRecord[] = [1, 2, 3].map((i) => ({
      eventID: `twice-${i}`,
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: { S: 'NODE#twice/n1' }, sk: { S: `MSG#00000000000${i}` } } },
    }));
    const before = await getOrgCounts('twice');
    await countFromStream(batch);
    await countFromStream(batch);
    expect((await getOrgCounts('twice')).nodeMsgs).toBe(before.nodeMsgs + 3);
  });

  it('skips an org that is gone (its STATS deleted before its items` records were read) and counts the others of the batch', async () => {
    await createOrg('kept');
    await counting.settled();
    const before = await getOrgCounts('kept');
    const record = (org: string, i: number): CountedRecord => ({
      eventID: `gone-${org}-${i}`,
      eventName: 'REMOVE',
      dynamodb: { Keys: { pk: { S: `AGBOT#${org}/ab` }, sk: { S: `MSG#00000000000${i}` } } },
    });
    await countFromStream([record('deleted-org', 1), record('kept', 2)]);
    expect((await getOrgCounts('kept')).agbotMsgs).toBe(before.agbotMsgs - 1);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: orgKeys.stats('deleted-org') }),
    );
    expect(Item).toBeUndefined();
  });
});
