import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteMessage } from '#functions/agbot-messages/delete-message';
import { handler as getMessage } from '#functions/agbot-messages/get-message';
import { handler as listMessages } from '#functions/agbot-messages/list-messages';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { getConfig } from '#lib/config';
import { listMessages as storedMessages } from '#tables/agbot/message-records';
import { mailboxLayout, messageItem, messageTtlAttribute } from '#tables/mailbox/mailbox';
import { batchPut } from '#test/support/batch-put';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';
import { createSender } from './fixtures.ts';

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
const base = (agreementbot = 'a1', organization = 'acme') => ({ organization, agreementbot });
const send = (auth: Auth, body: unknown, agbot = 'a1', handler = post) =>
  invoke(handler, { auth, path: base(agbot), body });
const read = (auth: Auth, query?: Record<string, string>, agbot = 'a1') =>
  invoke(list, { auth, path: base(agbot), ...(query ? { query } : {}) });
const readOne = (auth: Auth, message: string, agbot = 'a1') =>
  invoke(one, { auth, path: { ...base(agbot), message } });
const remove = (auth: Auth, message: string, agbot = 'a1') =>
  invoke(deleteMessage, { auth, path: { ...base(agbot), message } });
const ids = async (agbot = 'a1') => (await storedMessages('acme', agbot)).map((m) => m.msgId);
const msgCount = async () => (await orgCounts('acme')).agbotMsgs;

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let a1: Auth;
let a2: Auth;
let n1: Auth;
let n2: Auth;
let foreign: Auth;
let keyless: Auth;
let stranger: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'admin', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  stranger = await createUser('other', 'stranger', { admin: true });
  a1 = await createAgbot('acme', 'a1', 'acme/alice');
  a2 = await createAgbot('acme', 'a2', 'acme/bob');
  n1 = await createSender('acme', 'n1', 'acme/alice');
  n2 = await createSender('acme', 'n2', 'acme/bob');
  foreign = await createSender('other', 'far', 'other/stranger');
  keyless = await createNode('acme', 'bare', 'acme/alice');
});

describe('POST .../agbots/{agreementbot}/msgs', () => {
  it('stores a message from a node under id 1, then 2, and counts them', async () => {
    const before = await msgCount();
    const first = await send(n1, { message: 'hello', ttl: 60 });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ code: 'ok', msg: 'agbot msg 1 inserted' });
    expect((await send(n2, { message: 'second', ttl: 3600 })).body.msg).toBe('agbot msg 2 inserted');
    const [stored] = await storedMessages('acme', 'a1');
    expect(stored).toMatchObject({
      msgId: 1,
      nodeId: 'acme/n1',
      nodePubKey: 'n1-public-key',
      message: 'hello',
      timeSent: at.toISOString(),
      timeExpires: '2031-01-01T00:01:00.000Z',
      // DynamoDB's TTL sweeps a day after expiry; reads filter at expiry.
      ttl: at.getTime() / 1000 + 60 + 86400,
    });
    expect(await msgCount()).toBe(before + 2);
  });

  it('refuses nodes of other orgs (403, issue 23: only nodes of orgs the agbot may serve)', async () => {
    const refused = await send(foreign, { message: 'from afar', ttl: 3600 });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/other\/far.*may not send messages to agbots of org 'acme'/);
    expect((await send(n2, { message: 'third', ttl: 3600 })).body.msg).toBe('agbot msg 3 inserted');
  });

  it('refuses callers that are not nodes (403), a node without a public key (400), a missing agbot (404)', async () => {
    const body = { message: 'm', ttl: 60 };
    for (const caller of [alice, admin, hub, ROOT, a1, a2, stranger]) {
      const result = await send(caller, body);
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('access-denied');
    }
    const bare = await send(keyless, body);
    expect(bare.status).toBe(400);
    expect(bare.body.msg).toMatch(/publicKey/);
    const ghost = await send(n1, body, 'ghost');
    expect(ghost.status).toBe(404);
    expect(ghost.body).toEqual({ code: 'not-found', msg: "agbot 'acme/ghost' not found" });
    expect((await send({ ...n1, secret: 'wrong' }, body)).status).toBe(401);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it.each([
    ['malformed JSON', '{"message": "x", "ttl": ', /malformed JSON/],
    ['an unknown field', { message: 'x', ttl: 60, priority: 1 }, /'priority'/],
    ['a missing ttl', { message: 'x' }, /'ttl' is required/],
    ['a negative ttl', { message: 'x', ttl: -5 }, /'ttl'/],
    ['a zero ttl', { message: 'x', ttl: 0 }, /'ttl'/],
    ['a fractional ttl', { message: 'x', ttl: 1.5 }, /'ttl'/],
    ['a string ttl', { message: 'x', ttl: '60' }, /'ttl'/],
    ['a ttl of -1', { message: 'x', ttl: -1 }, /'ttl': must be at least 1/],
    ['a ttl past 32 bits', { message: 'x', ttl: 2 ** 31 }, /'ttl'/],
    ['a missing message', { ttl: 60 }, /'message' is required/],
    ['an empty message', { message: '', ttl: 60 }, /'message'/],
    ['a non-string message', { message: 7, ttl: 60 }, /'message'/],
    ['a message too large for one item', { message: 'x'.repeat(300_001), ttl: 60 }, /'message'/],
  ])('answers 400 naming the field for %s, writing and counting nothing', async (_, body, message) => {
    const before = await msgCount();
    const result = await send(n1, body);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toMatch(message);
    expect(await ids()).toEqual([1, 2, 3]);
    expect(await msgCount()).toBe(before);
  });

  it('used no id on refused requests: the next message is 4', async () => {
    expect((await send(n1, { message: 'fourth', ttl: 600 })).body.msg).toBe('agbot msg 4 inserted');
  });
});

describe('GET .../agbots/{agreementbot}/msgs', () => {
  it('returns the mailbox oldest first to the agbot and to users (any of its org, admins, hub admins, root)', async () => {
    for (const caller of [a1, alice, bob, admin, hub, ROOT]) {
      const result = await read(caller);
      expect(result.status).toBe(200);
      expect(result.body.lastIndex).toBe(0);
      expect(result.body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([1, 2, 3, 4]);
    }
    const [first] = (await read(a1)).body.messages;
    expect(first).toEqual({
      msgId: 1,
      nodeId: 'acme/n1',
      nodePubKey: 'n1-public-key',
      message: 'hello',
      timeSent: at.toISOString(),
      timeExpires: '2031-01-01T00:01:00.000Z',
    });
  });

  it('refuses nodes (even the sender), other agbots and other orgs', async () => {
    for (const caller of [n1, foreign, a2, stranger]) {
      const result = await read(caller);
      expect(result.status).toBe(403);
    }
    expect((await read(alice, undefined, 'ghost')).status).toBe(404);
    expect((await read(stranger, undefined, 'ghost')).status).toBe(404);
  });

  it('maxmsgs=N returns the oldest N; empty, zero or negative means all', async () => {
    const msgIds = async (maxmsgs: string) =>
      (await read(a1, { maxmsgs })).body.messages.map((m: { msgId: number }) => m.msgId);
    expect(await msgIds('2')).toEqual([1, 2]);
    expect(await msgIds('1')).toEqual([1]);
    expect(await msgIds('10')).toEqual([1, 2, 3, 4]);
    expect(await msgIds('')).toEqual([1, 2, 3, 4]);
    expect(await msgIds('0')).toEqual([1, 2, 3, 4]);
    expect(await msgIds('-3')).toEqual([1, 2, 3, 4]);
  });

  it.each(['abc', '1.5', '2x', '99999999999'])(
    'answers 400 naming maxmsgs for maxmsgs=%s',
    async (maxmsgs) => {
      const result = await read(a1, { maxmsgs });
      expect(result.status).toBe(400);
      expect(result.body.msg).toMatch(/'maxmsgs'/);
    },
  );

  it('answers 404 with an empty list for an empty mailbox', async () => {
    const result = await read(bob, undefined, 'a2');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ messages: [], lastIndex: 0 });
  });
});

describe('GET .../msgs/{message}', () => {
  it('returns one message in the list shape', async () => {
    const result = await readOne(a1, '2');
    expect(result.status).toBe(200);
    expect(result.body.lastIndex).toBe(0);
    expect(result.body.messages).toHaveLength(1);
    expect(result.body.messages[0]).toMatchObject({ msgId: 2, nodeId: 'acme/n2', message: 'second' });
  });

  it('answers 400 for a non-integer id before authorization, 404 for an unknown one', async () => {
    for (const bad of ['abc', '1.0', '12345678901']) {
      const result = await readOne(n1, bad);
      expect(result.status).toBe(400);
      expect(result.body.msg).toMatch(/'message'/);
    }
    for (const missing of ['99', '-1', '0']) {
      const result = await readOne(a1, missing);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ code: 'not-found', msg: 'not found' });
    }
    expect((await readOne(n1, '1')).status).toBe(403);
  });
});

describe('expiry', () => {
  it('never returns an expired message, deletes it on the next read and uncounts it', async () => {
    const before = await msgCount();
    now = new Date(at.getTime() + 60_000); // message 1 lived exactly 60 s
    expect((await readOne(a1, '1')).status).toBe(404);
    expect((await read(a1)).body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([2, 3, 4]);
    expect(await ids()).toEqual([2, 3, 4]);
    expect(await msgCount()).toBe(before - 1);
    now = new Date(at.getTime() + 601_000);
    expect((await read(a1, { maxmsgs: '1' })).body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([
      2,
    ]);
    // A bounded read deletes the expired messages it passes, not the whole mailbox's (issue 23).
    expect(await ids()).toEqual([2, 3, 4]);
    expect((await read(a1)).body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([2, 3]);
    expect(await ids()).toEqual([2, 3]);
    expect(await msgCount()).toBe(before - 2);
    now = at;
  });
});

describe('expiry at scale', () => {
  it('reads on past expired messages at the head: 300 of them, expired in a burst, do not hide the live one behind them', async () => {
    const deep = await createAgbot('acme', 'deep', 'acme/alice');
    const senders = await Promise.all(
      ['e1', 'e2', 'e3', 'e4'].map((id) => createSender('acme', id, 'acme/alice')),
    );
    // The 300 expired messages are written as posts leave them (the items, the mailbox's state,
    // each sender's share of 100, the default limit), not posted: 300 posts are about 1,200
    // calls, and beside a full run's other files they took over 120 s. Posting is tested above.
    const box = { kind: 'agbot', org: 'acme', id: 'deep' } as const;
    const layout = mailboxLayout(box);
    const timeExpires = new Date(at.getTime() + 1000).toISOString();
    const expired = ['e1', 'e2', 'e3'].flatMap((sender, s) =>
      Array.from({ length: 100 }, (_, i) => ({
        msgId: s * 100 + i + 1,
        senderId: `acme/${sender}`,
        senderPubKey: `${sender}-public-key`,
        message: `old-${i}`,
        timeSent: at.toISOString(),
        timeExpires,
        ttl: messageTtlAttribute(timeExpires),
        bytes: `old-${i}`.length,
      })),
    );
    const shares = ['e1', 'e2', 'e3'].map((sender) => ({
      ...layout.share(`acme/${sender}`),
      msgs: 100,
      bytes: expired.filter((m) => m.senderId === `acme/${sender}`).reduce((sum, m) => sum + m.bytes, 0),
    }));
    await batchPut(
      [...expired.map((m) => messageItem(box, m)), ...shares, { ...layout.state, seq: 300, storedMsgs: 300 }],
      4,
    );
    expect((await send(senders[3] as Auth, { message: 'live', ttl: 3600 }, 'deep')).status).toBe(201);
    expect(await ids('deep')).toHaveLength(301);
    now = new Date(at.getTime() + 2000);
    // Pages of 50, as the agbot's reader asks (lib/protocol/mailbox-pages.ts).
    const answer = await read(deep, { maxmsgs: '50' }, 'deep');
    expect(answer.status).toBe(200);
    expect(answer.body.messages.map((m: { message: string }) => m.message)).toEqual(['live']);
    expect(await ids('deep')).toEqual([301]);
    now = at;
  });
});

describe('DELETE .../msgs/{message}', () => {
  it('lets the owner and the agbot delete (404 when absent), uncounting once; refuses others', async () => {
    for (const caller of [n2, bob, a2, stranger]) expect((await remove(caller, '2')).status).toBe(403);
    const before = await msgCount();
    expect((await remove(a1, '2')).status).toBe(204);
    expect((await readOne(a1, '2')).status).toBe(404);
    const again = await remove(alice, '2');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "msg '2' for agbot 'acme/a1' not found" });
    expect((await remove(a1, '-1')).status).toBe(404);
    expect(await msgCount()).toBe(before - 1);
    expect((await remove(a1, 'two')).status).toBe(400);
    expect((await remove(alice, '3', 'ghost')).status).toBe(404);
    expect((await remove(admin, '3')).status).toBe(204);
    expect(await ids()).toEqual([]);
  });

  it('never reuses an id: after the mailbox emptied, the next message is 5', async () => {
    expect((await send(n1, { message: 'again', ttl: 60 })).body.msg).toBe('agbot msg 5 inserted');
    expect(await ids()).toEqual([5]);
  });
});

describe('mailbox limit (maxMessagesInMailbox)', () => {
  it("answers upstream's 502 when the unexpired messages fill the mailbox; expired ones do not count", async () => {
    await createAgbot('acme', 'small', 'acme/alice');
    const limited = postMessage.withDeps({ clock, config: mailboxOf(3) });
    expect((await send(n1, { message: 'short', ttl: 1 }, 'small', limited)).status).toBe(201);
    expect((await send(n1, { message: 'a', ttl: 60 }, 'small', limited)).status).toBe(201);
    expect((await send(n1, { message: 'b', ttl: 60 }, 'small', limited)).status).toBe(201);
    const full = await send(n2, { message: 'c', ttl: 60 }, 'small', limited);
    expect(full.status).toBe(502);
    expect(full.body).toEqual({
      code: 'database-connection-error',
      msg: 'Access Denied: the message mailbox of acme/small is full (3 messages)',
    });
    now = new Date(at.getTime() + 1000); // 'short' has expired: one slot again
    expect((await send(n2, { message: 'c', ttl: 60 }, 'small', limited)).body.msg).toBe(
      'agbot msg 4 inserted',
    );
    expect((await send(n2, { message: 'd', ttl: 60 }, 'small', limited)).status).toBe(502);
    expect((await send(n2, { message: 'd', ttl: 60 }, 'small', post)).status).toBe(201); // 0 = unlimited
    now = at;
  });
});
