/**
 * Issue 23, item 3: who may write to whose mailbox, and how much of it one sender may hold.
 * Messages go only between an agbot and nodes of orgs it may serve: its own org, or any org for a
 * multi-tenant agbot (org IBM). Users, root and other roles keep their 403.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAgbotMessage } from '#functions/agbot-messages/delete-message';
import { handler as listAgbotMessages } from '#functions/agbot-messages/list-messages';
import { handler as postAgbotMessage } from '#functions/agbot-messages/post-message';
import { handler as postNodeMessage } from '#functions/node-messages/post-message';
import { getConfig } from '#lib/config';
import { MAX_MESSAGES_PER_READ, READ_BUDGET_BYTES } from '#lib/mailbox';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSender } from '../agbot-messages/fixtures.ts';
import { createSendingAgbot } from '../node-messages/fixtures.ts';

useTestTable();

type Auth = { user: string; secret: string };
const body = { message: 'm', ttl: 600 };
const ids: Record<string, Auth> = {};

beforeAll(async () => {
  for (const org of ['acme', 'other', 'IBM']) {
    await createOrg(org);
    ids[`${org} admin`] = await createUser(org, 'admin', { admin: true });
    ids[`${org} agbot`] = await createSendingAgbot(org, 'bot', `${org}/admin`);
    ids[`${org} node`] = await createSender(org, 'node', `${org}/admin`);
  }
  ids['acme user'] = await createUser('acme', 'alice');
  ids['hub admin'] = await createUser('root', 'hub', { hubAdmin: true });
  ids.root = ROOT;
});

const toNode = (sender: string, org: string) =>
  invoke(postNodeMessage, { auth: ids[sender], path: { organization: org, node: 'node' }, body });
const toAgbot = (sender: string, org: string) =>
  invoke(postAgbotMessage, { auth: ids[sender], path: { organization: org, agreementbot: 'bot' }, body });

const withLimits = (limits: Record<string, number>) =>
  postAgbotMessage.withDeps({
    config: () => {
      const config = getConfig();
      return { ...config, limits: { ...config.limits, ...limits } };
    },
  });

describe('who may send to a node', () => {
  it.each([
    ['acme agbot', 'acme', 201],
    ['acme agbot', 'other', 403],
    ['acme agbot', 'IBM', 403],
    ['other agbot', 'acme', 403],
    ['IBM agbot', 'acme', 201],
    ['IBM agbot', 'other', 201],
    ['acme node', 'acme', 403],
    ['acme user', 'acme', 403],
    ['acme admin', 'acme', 403],
    ['hub admin', 'acme', 403],
    ['root', 'acme', 403],
  ])('%s → node of %s: %i', async (sender, org, status) => {
    const result = await toNode(sender, org);
    expect(result.status).toBe(status);
    if (status === 403) expect(result.body.code).toBe('access-denied');
  });
});

describe('who may send to an agbot', () => {
  it.each([
    ['acme node', 'acme', 201],
    ['acme node', 'other', 403],
    ['other node', 'acme', 403],
    ['acme node', 'IBM', 201],
    ['other node', 'IBM', 201],
    ['acme agbot', 'acme', 403],
    ['acme user', 'acme', 403],
    ['acme admin', 'acme', 403],
    ['hub admin', 'acme', 403],
    ['root', 'acme', 403],
  ])('%s → agbot of %s: %i', async (sender, org, status) => {
    const result = await toAgbot(sender, org);
    expect(result.status).toBe(status);
    if (status === 403) expect(result.body.code).toBe('access-denied');
  });
});

describe("one sender's share of a mailbox", () => {
  it('refuses a sender past its messages (429 naming the limit) while others still write; a delete gives its slot back', async () => {
    await createOrg('share');
    const owner = await createUser('share', 'owner', { admin: true });
    await createSendingAgbot('share', 'bot', 'share/owner');
    const n1 = await createSender('share', 'n1', 'share/owner');
    const n2 = await createSender('share', 'n2', 'share/owner');
    const post = withLimits({ maxMessagesPerSender: 2 });
    const path = { organization: 'share', agreementbot: 'bot' };
    const send = (auth: Auth) => invoke(post, { auth, path, body });
    expect((await send(n1)).status).toBe(201);
    expect((await send(n1)).status).toBe(201);
    const refused = await send(n1);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: share/n1 already has 2 messages in the mailbox of share/bot (limits.maxMessagesPerSender); try again once they are read',
    });
    expect((await send(n2)).status).toBe(201);
    const removed = await invoke(deleteAgbotMessage, { auth: owner, path: { ...path, message: '1' } });
    expect(removed.status).toBe(204);
    // Id 3 went to the refused post: its share is checked by the transaction, after the id is taken.
    expect((await send(n1)).body.msg).toBe('agbot msg 5 inserted');
  });

  it("refuses a message that would take the sender's bytes past its share", async () => {
    await createOrg('bytes');
    await createUser('bytes', 'owner', { admin: true });
    await createSendingAgbot('bytes', 'bot', 'bytes/owner');
    const n1 = await createSender('bytes', 'n1', 'bytes/owner');
    const post = withLimits({ maxMessageBytesPerSender: 300_000 });
    const path = { organization: 'bytes', agreementbot: 'bot' };
    const large = { message: 'x'.repeat(200_000), ttl: 600 };
    expect((await invoke(post, { auth: n1, path, body: large })).status).toBe(201);
    const refused = await invoke(post, { auth: n1, path, body: large });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/past 300000 bytes \(limits\.maxMessageBytesPerSender\)/);
    expect(
      (await invoke(post, { auth: n1, path, body: { message: 'x'.repeat(100_000), ttl: 600 } })).status,
    ).toBe(201);
  });
});

describe('a list read is bounded', () => {
  it('returns at most 100 messages whatever maxmsgs asks, about 2 MB at most, and the next page with after', async () => {
    await createOrg('pages');
    await createUser('pages', 'owner', { admin: true });
    const agbot = await createSendingAgbot('pages', 'bot', 'pages/owner');
    const path = { organization: 'pages', agreementbot: 'bot' };
    const senders = await Promise.all(
      Array.from({ length: 3 }, (_, i) => createSender('pages', `n${i}`, 'pages/owner')),
    );
    const post = withLimits({ maxMessagesPerSender: 0, maxMessageBytesPerSender: 0 });
    for (let i = 0; i < 110; i++) {
      const auth = senders[i % 3] as Auth;
      expect((await invoke(post, { auth, path, body: { message: `small ${i}`, ttl: 600 } })).status).toBe(
        201,
      );
    }
    for (let i = 0; i < 9; i++) {
      const auth = senders[i % 3] as Auth;
      const message = { message: 'x'.repeat(290_000), ttl: 600 };
      expect((await invoke(post, { auth, path, body: message })).status).toBe(201);
    }
    const read = (query: Record<string, string>) => invoke(listAgbotMessages, { auth: agbot, path, query });
    const first = await read({ maxmsgs: '100000' });
    expect(first.body.messages).toHaveLength(MAX_MESSAGES_PER_READ);
    expect(first.body.messages.at(-1).msgId).toBe(100);
    expect((await read({})).body.messages).toHaveLength(MAX_MESSAGES_PER_READ);
    const second = await read({ after: '100' });
    expect(second.body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([
      101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116,
    ]);
    expect(Buffer.byteLength(second.text)).toBeLessThanOrEqual(READ_BUDGET_BYTES);
    const third = await read({ after: '116' });
    expect(third.body.messages.map((m: { msgId: number }) => m.msgId)).toEqual([117, 118, 119]);
    expect((await read({ after: '119' })).status).toBe(404);
  });
});
