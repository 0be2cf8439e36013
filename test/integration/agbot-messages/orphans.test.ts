import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { agbotMailbox } from '#tables/agbot/message-records';
import { documentClient, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { orgKeys } from '#tables/keys/org';
import { postMessage as storeMessage } from '#tables/mailbox/post';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSender } from './fixtures.ts';

useTestTable();

const partition = async (org: string, id: string) => {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': agbotKeys.record(org, id).pk },
    }),
  );
  return Items.map((item) => String(item.sk));
};

/** A message racing the DELETE of its agbot must not outlive it (issue 3: no orphan may survive). */
describe('a message posted while its agbot is deleted', () => {
  it('is taken back when the agbot is being deleted (claimed) by the time it is stored', async () => {
    await createOrg('race');
    await createUser('race', 'owner');
    await createAgbot('race', 'a1', 'race/owner');
    const node = await createSender('race', 'n1', 'race/owner');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotKeys.record('race', 'a1'),
        UpdateExpression: 'SET deleting = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    const posted = await invoke(postMessage, {
      auth: node,
      path: { organization: 'race', agreementbot: 'a1' },
      body: { message: 'hello', ttl: 60 },
    });
    expect(posted.status).toBe(404);
    expect((await partition('race', 'a1')).filter((sk) => sk.startsWith('MSG#'))).toEqual([]);
  });

  it('stores nothing (no message, no mailbox state, no count) when the agbot is already gone', async () => {
    const now = new Date();
    const result = await storeMessage({
      box: agbotMailbox('race', 'gone'),
      sender: { kind: 'node', org: 'race', id: 'n1' },
      message: {
        senderId: 'race/n1',
        senderPubKey: 'k',
        message: 'late',
        timeSent: now.toISOString(),
        timeExpires: new Date(now.getTime() + 60_000).toISOString(),
        bytes: 4,
      },
      limits: { max: 0, perSender: { msgs: 0, bytes: 0 } },
      // Read while the agbot was still there: the write's own check must catch its deletion.
      state: { seq: 0, stored: 0 },
      share: { msgs: 0, bytes: 0 },
      now,
    });
    expect(result).toEqual({ outcome: 'no-owner' });
    expect(await partition('race', 'gone')).toEqual([]);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: orgKeys.stats('race'), ConsistentRead: true }),
    );
    expect(Item?.agbotMsgs ?? 0).toBe(0);
  });
});
