import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listMessages } from '#functions/agbot-messages/list-messages';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { handler as patchNode } from '#functions/nodes/patch-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { getConfig } from '#lib/config';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { identityKeys } from '#tables/identity/keys';
import { principalCache } from '#tables/identity/principals';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { principalItem } from '../principals/support.ts';
import { createSender } from './fixtures.ts';

/**
 * A node's post to an agbot's mailbox reads nothing: the node's key comes from its principal item,
 * which authentication read (tables/identity/records.ts `nodeEntry`), and the post's transaction
 * checks that the node still holds it (tables/mailbox/post.ts, `senderKey`). Whatever the item
 * says, the answer is the one the read would give.
 */
useTestTable();

type Auth = { user: string; secret: string };
const body = { message: 'm', ttl: 600 };
const box = (agreementbot = 'a1', organization = 'nk') => ({ organization, agreementbot });
const send = (auth: Auth, path = box(), handler = postMessage) => invoke(handler, { auth, path, body });
/** The node keys of the agbot's messages, oldest first, as the agbot reads them. */
const keysIn = async (agbot: Auth, path = box()) =>
  (await invoke(listMessages, { auth: agbot, path })).body.messages.map(
    (m: { nodePubKey: string }) => m.nodePubKey,
  );
const nodeBody = (publicKey: string, token: string) => ({
  name: 'n',
  token,
  pattern: '',
  publicKey,
  arch: 'amd64',
});
const callsOf = async (run: () => Promise<unknown>) => {
  const before = dynamoCallCount();
  await run();
  return dynamoCallCount() - before;
};
const update = (key: { pk: string; sk: string }, expression: string, values?: Record<string, unknown>) =>
  documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: expression,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );
/** The public key in the node's principal item. */
const entryKey = async (node: string) => (await principalItem('nk', node))?.node?.publicKey;
/** The calls of one post that must be stored. */
const sentCalls = (auth: Auth, path = box()) =>
  callsOf(async () => expect((await send(auth, path)).status).toBe(201));

/** Every item of a partition (what a refused post must not leave behind). */
const partition = async (pk: string) =>
  (
    await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

let alice: Auth;
let a1: Auth;

beforeAll(async () => {
  await createOrg('nk');
  alice = await createUser('nk', 'alice');
  a1 = await createAgbot('nk', 'a1', 'nk/alice');
});

describe("a node's post to an agbot, with the node's key from its principal item", () => {
  it('stores the key the node registered, in 2 calls once the node is remembered', async () => {
    const put = await invoke(putNode, {
      auth: alice,
      path: { organization: 'nk', node: 'reg' },
      body: nodeBody('reg-key-1', 'reg-token'),
    });
    expect(put.status).toBe(201);
    expect((await principalItem('nk', 'reg'))?.node).toMatchObject({ publicKey: 'reg-key-1' });
    const reg = { user: 'nk/reg', secret: 'reg-token' };
    expect((await send(reg)).status).toBe(201);
    expect(await sentCalls(reg)).toBe(2);
    expect(await keysIn(a1)).toEqual(['reg-key-1', 'reg-key-1']);
  });

  it('carries the new key once the node changed it (PUT, PATCH), and answers 400 once it cleared it', async () => {
    const node = await createSender('nk', 'rot', 'nk/alice', 'rot-key-1');
    const path = box('a2');
    const a2 = await createAgbot('nk', 'a2', 'nk/alice');
    expect((await send(node, path)).status).toBe(201);
    const self = { organization: 'nk', node: 'rot' };
    // The node re-registers with a new key (its owner may not replace one: functions/nodes/save-node.ts).
    expect(
      (await invoke(putNode, { auth: node, path: self, body: nodeBody('rot-key-2', 'rot-token') })).status,
    ).toBe(201);
    // Read from the new entry (the write forgot the identity here), not from the node: 1 + 2 calls.
    expect(await sentCalls(node, path)).toBe(3);
    expect(await entryKey('rot')).toBe('rot-key-2');
    expect((await invoke(patchNode, { auth: node, path: self, body: { publicKey: '' } })).status).toBe(201);
    expect(await entryKey('rot')).toBe('');
    const cleared = await send(node, path);
    expect([cleared.status, cleared.body.msg]).toEqual([
      400,
      "invalid input: node 'nk/rot' has no publicKey; it must set one before sending messages",
    ]);
    expect(
      (await invoke(patchNode, { auth: node, path: self, body: { publicKey: 'rot-key-3' } })).status,
    ).toBe(201);
    expect(await entryKey('rot')).toBe('rot-key-3');
    expect(await sentCalls(node, path)).toBe(3);
    expect(await keysIn(a2, path)).toEqual(['rot-key-1', 'rot-key-2', 'rot-key-3']);
  });

  it('reads the node when the key this instance remembers is no longer the node’s (changed elsewhere)', async () => {
    const node = await createSender('nk', 'far', 'nk/alice', 'far-key-1');
    const path = box('a3');
    const a3 = await createAgbot('nk', 'a3', 'nk/alice');
    expect((await send(node, path)).status).toBe(201);
    // Written by another instance: this one still authenticates the node with the old entry.
    await update(nodeKeys.record('nk', 'far'), 'SET publicKey = :key', { ':key': 'far-key-2' });
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: identityKeys.principal('nk', 'far'),
        UpdateExpression: 'SET #node.publicKey = :key',
        ExpressionAttributeNames: { '#node': 'node' },
        ExpressionAttributeValues: { ':key': 'far-key-2' },
      }),
    );
    // The refused attempt (the id, the transaction, the place given back), then as a read post.
    expect(await sentCalls(node, path)).toBe(6);
    // The stale entry is forgotten: the identity is read again, with the new key.
    expect(await sentCalls(node, path)).toBe(3);
    expect(await keysIn(a3, path)).toEqual(['far-key-1', 'far-key-2', 'far-key-2']);
  });

  it('takes the read path for a principal item written before it held the key', async () => {
    const node = await createSender('nk', 'old', 'nk/alice', 'old-key');
    const path = box('a4');
    const a4 = await createAgbot('nk', 'a4', 'nk/alice');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: identityKeys.principal('nk', 'old'),
        UpdateExpression: 'REMOVE #node.publicKey',
        ExpressionAttributeNames: { '#node': 'node' },
      }),
    );
    principalCache.forget('nk', 'old');
    expect((await send(node, path)).status).toBe(201);
    // Warm: the BatchGetItem, the id, the transaction.
    expect(await sentCalls(node, path)).toBe(3);
    expect(await keysIn(a4, path)).toEqual(['old-key', 'old-key']);
  });

  it('answers 404 for an agbot missing or being deleted, and writes nothing', async () => {
    const node = await createSender('nk', 'lost', 'nk/alice');
    expect((await send(node, box('a1'))).status).toBe(201);
    const missing = await send(node, box('ghost'));
    expect([missing.status, missing.body]).toEqual([
      404,
      { code: 'not-found', msg: "agbot 'nk/ghost' not found" },
    ]);
    expect(await partition(agbotKeys.record('nk', 'ghost').pk)).toEqual([]);
    await createAgbot('nk', 'going', 'nk/alice');
    await update(agbotKeys.record('nk', 'going'), 'SET deleting = :now', {
      ':now': new Date().toISOString(),
    });
    expect((await send(node, box('going'))).status).toBe(404);
    expect((await partition(agbotKeys.record('nk', 'going').pk)).map((item) => item.sk)).toEqual(['AGBOT']);
  });

  it('keeps the limits: the share (429) and the mailbox (502)', async () => {
    const node = await createSender('nk', 'busy', 'nk/alice');
    const path = box('a5');
    const a5 = await createAgbot('nk', 'a5', 'nk/alice');
    expect((await send(node, path)).status).toBe(201);
    const limited = (limits: Record<string, number>) =>
      postMessage.withDeps({
        config: () => ({ ...getConfig(), limits: { ...getConfig().limits, ...limits } }),
      });
    expect((await send(node, path, limited({ maxMessagesPerSender: 1 }))).status).toBe(429);
    expect((await send(node, path, limited({ maxMessagesInMailbox: 1 }))).status).toBe(502);
    expect(await keysIn(a5, path)).toEqual(['busy-public-key']);
  });

  it('refuses a node of another org (403) before anything, and lets it post to an agbot of org IBM', async () => {
    await createOrg('elsewhere');
    await createOrg('IBM');
    await createUser('elsewhere', 'eve');
    await createUser('IBM', 'ibmer');
    const stranger = await createSender('elsewhere', 'n9', 'elsewhere/eve');
    const refused = await send(stranger, box('a1'));
    expect([refused.status, refused.body.code]).toEqual([403, 'access-denied']);
    const ibm = await createAgbot('IBM', 'mt', 'IBM/ibmer');
    expect((await send(stranger, box('mt', 'IBM'))).status).toBe(201);
    expect(await keysIn(ibm, box('mt', 'IBM'))).toEqual(['n9-public-key']);
  });
});
