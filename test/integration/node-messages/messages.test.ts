import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteMessage } from '#functions/node-messages/delete-message';
import { handler as getMessage } from '#functions/node-messages/get-message';
import { handler as listMessages } from '#functions/node-messages/list-messages';
import { handler as postMessage } from '#functions/node-messages/post-message';
import { getConfig } from '#lib/config';
import { listNodeMessages } from '#tables/node/message-records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';
import { changeRows, createSendingAgbot } from './fixtures.ts';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

type Auth = { user: string; secret: string };
const at = new Date('2031-01-01T00:00:00.000Z');
let now = at;
const clock = { now: () => now };
const mailboxOf = (max: number) => {
  const config = getConfig();
  return () => ({ ...config, limits: { ...config.limits, maxMessagesInMailbox: max } });
};
const post = postMessage.withDeps({ clock });
const list = listMessages.withDeps({ clock });
const one = getMessage.withDeps({ clock });
const base = (node = 'n1', organization = 'acme') => ({ organization, node });
const send = (auth: Auth, body: unknown, node = 'n1', handler = post, organization = 'acme') =>
  invoke(handler, { auth, path: base(node, organization), body });
const read = (auth: Auth, query?: Record<string, string>, node = 'n1') =>
  invoke(list, { auth, path: base(node), ...(query ? { query } : {}) });
const readOne = (auth: Auth, msgid: string, node = 'n1') =>
  invoke(one, { auth, path: { ...base(node), msgid } });
const remove = (auth: Auth, msgid: string, node = 'n1') =>
  invoke(deleteMessage, { auth, path: { ...base(node), msgid } });
const ids = async (node = 'n1', org = 'acme') => (await listNodeMessages(org, node)).map((m) => m.msgId);
const msgCount = async (org = 'acme') => (await orgCounts(org)).nodeMsgs;
const msgIds = (result: { body: { messages: { msgId: number }[] } }) =>
  result.body.messages.map((m) => m.msgId);

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let stranger: Auth;
let a1: Auth;
let a2: Auth;
let far: Auth;
let ibm: Auth;
let keyless: Auth;
let n1: Auth;
let n2: Auth;
let farNode: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'admin', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  stranger = await createUser('other', 'stranger', { admin: true });
  a1 = await createSendingAgbot('acme', 'a1', 'acme/alice');
  a2 = await createSendingAgbot('acme', 'a2', 'acme/bob');
  far = await createSendingAgbot('other', 'far', 'other/stranger');
  await createOrg('IBM');
  await createUser('IBM', 'ibmadmin', { admin: true });
  ibm = await createSendingAgbot('IBM', 'mt', 'IBM/ibmadmin');
  keyless = await createAgbot('acme', 'bare', 'acme/alice');
  n1 = await createNode('acme', 'n1', 'acme/alice');
  n2 = await createNode('acme', 'n2', 'acme/bob');
  farNode = await createNode('other', 'fn', 'other/stranger');
});

describe('POST .../nodes/{node}/msgs', () => {
  it('stores a message from an agbot under id 1, then 2, counts them and records nodemsgs changes for the node', async () => {
    const first = await send(a1, { message: 'proposal', ttl: 60 });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ code: 'ok', msg: 'node msg 1 inserted' });
    expect((await send(a2, { message: 'second', ttl: 3600 })).body.msg).toBe('node msg 2 inserted');
    const [stored] = await listNodeMessages('acme', 'n1');
    expect(stored).toMatchObject({
      msgId: 1,
      agbotId: 'acme/a1',
      agbotPubKey: 'a1-public-key',
      message: 'proposal',
      timeSent: at.toISOString(),
      timeExpires: '2031-01-01T00:01:00.000Z',
      ttl: at.getTime() / 1000 + 60 + 86400,
    });
    expect(await msgCount()).toBe(2);
    expect(await changeRows('acme')).toEqual([
      { resource: 'nodemsgs', id: 'n1', operation: 'created' },
      { resource: 'nodemsgs', id: 'n1', operation: 'created' },
    ]);
  });

  it("takes messages from multi-tenant agbots (org IBM) only among other orgs' agbots (issue 23)", async () => {
    const refused = await send(far, { message: 'from afar', ttl: 3600 });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/other\/far.*may not send messages to nodes of org 'acme'/);
    expect((await send(a1, { message: 'abroad', ttl: 60 }, 'fn', post, 'other')).status).toBe(403);
    expect((await send(ibm, { message: 'from afar', ttl: 3600 })).body.msg).toBe('node msg 3 inserted');
    const abroad = await send(ibm, { message: 'abroad', ttl: 60 }, 'fn', post, 'other');
    expect(abroad.body).toEqual({ code: 'ok', msg: 'node msg 1 inserted' });
    expect(await ids('fn', 'other')).toEqual([1]);
    expect(await changeRows('other')).toEqual([{ resource: 'nodemsgs', id: 'fn', operation: 'created' }]);
    expect(await msgCount('other')).toBe(1);
  });

  it('refuses callers that are not agbots (403), an agbot without a public key (400), a missing node (404)', async () => {
    const body = { message: 'm', ttl: 60 };
    for (const caller of [alice, admin, hub, ROOT, n1, n2, farNode, stranger]) {
      const result = await send(caller, body);
      expect(result.status, caller.user).toBe(403);
      expect(result.body.code).toBe('access-denied');
    }
    const bare = await send(keyless, body);
    expect(bare.status).toBe(400);
    expect(bare.body.msg).toMatch(/publicKey/);
    const ghost = await send(a1, body, 'ghost');
    expect(ghost.status).toBe(404);
    expect(ghost.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    // Another org's agbot is refused before the node is looked up (issue 23).
    expect((await send(far, body, 'ghost')).status).toBe(403);
    expect((await send(ibm, body, 'ghost')).status).toBe(404);
    expect((await send({ ...a1, secret: 'wrong' }, body)).status).toBe(401);
    expect(await ids()).toEqual([1, 2, 3]);
    expect((await changeRows('acme')).length).toBe(3);
  });

  it.each([
    ['malformed JSON', '{"message": "x", "ttl": ', /malformed JSON/],
    ['an unknown field', { message: 'x', ttl: 60, priority: 1 }, /'priority'/],
    ['a missing ttl', { message: 'x' }, /'ttl' is required/],
    ['a zero ttl', { message: 'x', ttl: 0 }, /'ttl'/],
    ['an empty message', { message: '', ttl: 60 }, /'message'/],
    ['a message too large for one item', { message: 'x'.repeat(300_001), ttl: 60 }, /'message'/],
  ])('answers 400 naming the field for %s, writing nothing', async (_, body, message) => {
    const result = await send(a1, body);
    expect(result.status).toBe(400);
    expect(result.body.msg).toMatch(message);
    expect(await ids()).toEqual([1, 2, 3]);
    expect(await msgCount()).toBe(3);
  });
});

describe('GET .../nodes/{node}/msgs', () => {
  it('returns the mailbox oldest first to the node, its owner, org admins, root and agbots of its org', async () => {
    for (const caller of [n1, alice, admin, ROOT, a1, a2]) {
      const result = await read(caller);
      expect(result.status, caller.user).toBe(200);
      expect(result.body.lastIndex).toBe(0);
      expect(msgIds(result)).toEqual([1, 2, 3]);
    }
    expect((await read(n1)).body.messages[0]).toEqual({
      msgId: 1,
      agbotId: 'acme/a1',
      agbotPubKey: 'a1-public-key',
      message: 'proposal',
      timeSent: at.toISOString(),
      timeExpires: '2031-01-01T00:01:00.000Z',
    });
  });

  it('refuses other nodes, other users, hub admins and other orgs (403); a missing node is a 404', async () => {
    for (const caller of [n2, farNode, bob, hub, stranger, far]) {
      expect((await read(caller)).status, caller.user).toBe(403);
    }
    expect((await read(alice, undefined, 'ghost')).status).toBe(404);
    expect((await read(stranger, undefined, 'ghost')).status).toBe(404);
  });

  it('maxmsgs=N returns the oldest N; zero or negative means all; empty or not an integer is a 400', async () => {
    expect(msgIds(await read(n1, { maxmsgs: '2' }))).toEqual([1, 2]);
    expect(msgIds(await read(n1, { maxmsgs: '0' }))).toEqual([1, 2, 3]);
    expect(msgIds(await read(n1, { maxmsgs: '-3' }))).toEqual([1, 2, 3]);
    for (const maxmsgs of ['', 'abc', '1.5', '99999999999']) {
      const result = await read(n1, { maxmsgs });
      expect(result.status, maxmsgs).toBe(400);
      expect(result.body.msg).toMatch(/'maxmsgs'/);
    }
  });

  it('answers 404 with an empty list for an empty mailbox', async () => {
    const result = await read(n2, undefined, 'n2');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ messages: [], lastIndex: 0 });
  });
});

describe('GET .../nodes/{node}/msgs/{msgid}', () => {
  it('returns one message in the list shape; 404 for an unknown id; 400 for a non-integer one', async () => {
    const result = await readOne(n1, '2');
    expect(result.status).toBe(200);
    expect(result.body.messages).toHaveLength(1);
    expect(result.body.messages[0]).toMatchObject({ msgId: 2, agbotId: 'acme/a2', message: 'second' });
    for (const missing of ['99', '-1', '0']) {
      expect((await readOne(n1, missing)).body).toEqual({ code: 'not-found', msg: 'not found' });
    }
    expect((await readOne(n1, 'abc')).status).toBe(400);
    expect((await readOne(n2, '1')).status).toBe(403);
  });
});

describe('expiry', () => {
  it('never returns an expired message; the next read deletes and uncounts it', async () => {
    now = new Date(at.getTime() + 60_000);
    expect((await readOne(n1, '1')).status).toBe(404);
    expect(msgIds(await read(n1))).toEqual([2, 3]);
    expect(await ids()).toEqual([2, 3]);
    expect(await msgCount()).toBe(2);
    now = at;
  });
});

describe('DELETE .../nodes/{node}/msgs/{msgid}', () => {
  it('lets the node and its owner delete (404 when absent), uncounting once; refuses others', async () => {
    for (const caller of [n2, bob, a1, far, hub, stranger]) {
      expect((await remove(caller, '2')).status, caller.user).toBe(403);
    }
    expect((await remove(n1, '2')).status).toBe(204);
    expect((await readOne(n1, '2')).status).toBe(404);
    const again = await remove(alice, '2');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "msg '2' for node 'acme/n1' not found" });
    expect((await remove(n1, '-1')).status).toBe(404);
    expect((await remove(n1, '999')).status).toBe(404);
    expect(await msgCount()).toBe(1);
    expect((await remove(n1, 'two')).status).toBe(400);
    expect((await remove(alice, '3', 'ghost')).status).toBe(404);
    expect((await remove(admin, '3')).status).toBe(204);
    expect(await ids()).toEqual([]);
    expect(await msgCount()).toBe(0);
  });

  it('never reuses an id: after the mailbox emptied, the next message is 4', async () => {
    expect((await send(a1, { message: 'again', ttl: 60 })).body.msg).toBe('node msg 4 inserted');
    expect(await ids()).toEqual([4]);
  });
});

describe('mailbox limit (maxMessagesInMailbox)', () => {
  it("answers upstream's 502 when unexpired messages fill the mailbox; expired ones free their slot", async () => {
    await createNode('acme', 'small', 'acme/alice');
    const limited = postMessage.withDeps({ clock, config: mailboxOf(2) });
    expect((await send(a1, { message: 'short', ttl: 1 }, 'small', limited)).status).toBe(201);
    expect((await send(a1, { message: 'a', ttl: 60 }, 'small', limited)).status).toBe(201);
    const full = await send(a2, { message: 'b', ttl: 60 }, 'small', limited);
    expect(full.status).toBe(502);
    expect(full.body).toEqual({
      code: 'database-connection-error',
      msg: 'Access Denied: the message mailbox of acme/small is full (2 messages)',
    });
    now = new Date(at.getTime() + 1000); // 'short' expired: its slot is free again
    expect((await send(a2, { message: 'b', ttl: 60 }, 'small', limited)).body.msg).toBe(
      'node msg 3 inserted',
    );
    expect((await send(a2, { message: 'c', ttl: 60 }, 'small', limited)).status).toBe(502);
    expect(await ids('small')).toEqual([2, 3]);
    now = at;
  });
});
