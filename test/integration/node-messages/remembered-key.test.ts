import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as postMessage } from '#functions/node-messages/post-message';
import { rememberedSenderKey } from '#functions/node-messages/shared/sender-keys';
import { getConfig } from '#lib/config';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { listNodeMessages } from '#tables/node/message-records';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSendingAgbot } from './fixtures.ts';

/**
 * A post to a node's mailbox by an agbot whose key this instance remembers reads nothing
 * (functions/node-messages/shared/sender-keys.ts): its transaction checks the node, the agbot's
 * key and deletion, and the limits (tables/mailbox/post.ts, `senderKey`). Each case first posts
 * once, so that the key is remembered, then changes what the remembered post must not miss.
 */
useTestTable();

const body = { message: 'm', ttl: 600 };
const setKey = (org: string, id: string, expression: string, values: Record<string, unknown> = {}) =>
  documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: agbotKeys.record(org, id),
      UpdateExpression: expression,
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    }),
  );

async function fleet(org: string) {
  await createOrg(org);
  await createUser(org, 'alice');
  const agbot = await createSendingAgbot(org, 'a1', `${org}/alice`);
  await createNode(org, 'n1', `${org}/alice`);
  const path = { organization: org, node: 'n1' };
  expect((await invoke(postMessage, { auth: agbot, path, body })).status).toBe(201);
  expect(rememberedSenderKey(`${org}/a1`)).toBe('a1-public-key');
  return { agbot, path };
}

describe("a post with the agbot's key remembered", () => {
  it('carries the new key once the agbot changed it, read again at once (4 calls more, once)', async () => {
    const { agbot, path } = await fleet('rk-new');
    await setKey('rk-new', 'a1', 'SET publicKey = :key', { ':key': 'a1-rotated' });
    const before = dynamoCallCount();
    expect((await invoke(postMessage, { auth: agbot, path, body })).status).toBe(201);
    // The remembered post (the id, the refused transaction, the place given back), then as a cold one.
    expect(dynamoCallCount() - before).toBe(6);
    expect((await listNodeMessages('rk-new', 'n1')).map((m) => m.agbotPubKey)).toEqual([
      'a1-public-key',
      'a1-rotated',
    ]);
    expect(rememberedSenderKey('rk-new/a1')).toBe('a1-rotated');
  });

  it('is refused as before when the agbot is being deleted or has no key left', async () => {
    const { agbot, path } = await fleet('rk-gone');
    await setKey('rk-gone', 'a1', 'SET deleting = :now', { ':now': new Date().toISOString() });
    const deleting = await invoke(postMessage, { auth: agbot, path, body });
    expect([deleting.status, deleting.body.msg]).toEqual([400, 'Invalid Input: agbot rk-gone/a1 not found']);
    await setKey('rk-gone', 'a1', 'REMOVE deleting, publicKey');
    const keyless = await invoke(postMessage, { auth: agbot, path, body });
    expect([keyless.status, keyless.body.msg]).toEqual([
      400,
      "invalid input: agbot 'rk-gone/a1' has no publicKey; it must set one before sending messages",
    ]);
    expect((await listNodeMessages('rk-gone', 'n1')).length).toBe(1);
  });

  it('answers 404 for a node that does not exist, and leaves nothing behind', async () => {
    const { agbot } = await fleet('rk-none');
    const missing = await invoke(postMessage, {
      auth: agbot,
      path: { organization: 'rk-none', node: 'n9' },
      body,
    });
    expect(missing.status).toBe(404);
    const { Items = [] } = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': nodeKeys.record('rk-none', 'n9').pk },
        ConsistentRead: true,
      }),
    );
    expect(Items).toEqual([]);
  });

  it('still keeps the limits: the share (429) and the mailbox (502), answered after a read', async () => {
    const { agbot, path } = await fleet('rk-full');
    const limited = (limits: Record<string, number>) =>
      postMessage.withDeps({
        config: () => ({ ...getConfig(), limits: { ...getConfig().limits, ...limits } }),
      });
    const share = await invoke(limited({ maxMessagesPerSender: 1 }), { auth: agbot, path, body });
    expect(share.status).toBe(429);
    const full = await invoke(limited({ maxMessagesInMailbox: 1 }), { auth: agbot, path, body });
    expect(full.status).toBe(502);
    expect((await listNodeMessages('rk-full', 'n1')).length).toBe(1);
  });

  it('counts a mailbox written before storedMsgs existed before it posts', async () => {
    const { agbot, path } = await fleet('rk-legacy');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: nodeKeys.messageSeq('rk-legacy', 'n1'),
        UpdateExpression: 'REMOVE storedMsgs',
      }),
    );
    expect((await invoke(postMessage, { auth: agbot, path, body })).body.msg).toBe('node msg 2 inserted');
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName(),
        Key: nodeKeys.messageSeq('rk-legacy', 'n1'),
        ConsistentRead: true,
      }),
    );
    expect(Item).toMatchObject({ seq: 2, storedMsgs: 2 });
  });
});
