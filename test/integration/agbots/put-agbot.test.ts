import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAgbotHandler } from '#functions/agbots/get-agbot';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { getConfig } from '#lib/config';
import { getAgbot } from '#tables/agbot/records';
import { userKeys } from '#tables/keys/user';
import { getOrgCounts, getUserCounts } from '#tables/org/stats';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { partitionSortKeys } from '#test/support/partition';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-05-06T07:08:09.010Z');
const put = putAgbot.withDeps({ clock: { now: () => at } });
const body = { token: 'bot-token', name: 'Bot', publicKey: 'KEY' };
const send = (auth: Auth, agreementbot: string, payload: unknown = body, organization = 'acme') =>
  invoke(put, { auth, path: { organization, agreementbot }, body: payload });
const read = (auth: Auth, agreementbot: string) =>
  invoke(getAgbotHandler, { auth, path: { organization: 'acme', agreementbot } });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
});

describe('PUT /v1/orgs/{organization}/agbots/{agreementbot}: create', () => {
  it('creates the agbot owned by the calling user, token hashed, and counts it', async () => {
    const org = await getOrgCounts('acme');
    const result = await send(alice, 'a1', { ...body, msgEndPoint: 'ep' });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ code: 'ok', msg: 'agbot added or updated' });
    const stored = await getAgbot('acme', 'a1');
    expect(stored).toMatchObject({ owner: 'acme/alice', name: 'Bot', publicKey: 'KEY', msgEndPoint: 'ep' });
    expect(stored?.tokenHash).toMatch(/^\$scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain('bot-token');
    expect(stored?.lastHeartbeat).toBe('2031-05-06T07:08:09.010Z[UTC]');
    expect((await getOrgCounts('acme')).agbots).toBe(org.agbots + 1);
    expect((await getUserCounts('acme', 'alice')).agbots).toBe(1);
    // The new token works at once; reads show it masked.
    const asAgbot = { user: 'acme/a1', secret: 'bot-token' };
    const shown = await read(asAgbot, 'a1');
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      agbots: {
        'acme/a1': {
          id: 'acme/a1',
          lastHeartbeat: '2031-05-06T07:08:09.010Z[UTC]',
          msgEndPoint: 'ep',
          name: 'Bot',
          orgid: 'acme',
          owner: 'acme/alice',
          publicKey: 'KEY',
          token: '***************',
        },
      },
      lastIndex: 0,
    });
  });

  it('lets root and hub admins create in any org (a link beside a foreign owner), and 404s a missing org', async () => {
    expect((await send(hub, 'hub-bot')).status).toBe(200);
    expect((await getAgbot('acme', 'hub-bot'))?.owner).toBe('root/hub');
    expect(await partitionSortKeys(userKeys.record('root', 'hub').pk)).toContain('OWNS#AGBOT#acme/hub-bot');
    expect((await getUserCounts('root', 'hub')).agbots).toBe(1);
    expect((await send(ROOT, 'root-bot')).status).toBe(200);
    const missing = await send(ROOT, 'x', body, 'nowhere');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("org 'nowhere' not found");
  });

  it('refuses nodes, agbots and users of other orgs', async () => {
    const node = await createNode('acme', 'n1', 'acme/alice');
    const agbot = await createAgbot('acme', 'other-bot', 'acme/alice');
    const stranger = await createUser('other', 'olga');
    for (const who of [node, agbot, stranger]) {
      const denied = await send(who, 'new-bot');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await getAgbot('acme', 'new-bot')).toBeUndefined();
    expect((await send({ user: 'acme/alice', secret: 'wrong' }, 'new-bot')).status).toBe(401);
  });

  it('refuses a user past maxAgbots with a clear 403, counting nothing', async () => {
    const config = getConfig();
    const limited = putAgbot.withDeps({
      config: () => ({ ...config, limits: { ...config.limits, maxAgbots: 2 } }),
    });
    const carol = await createUser('acme', 'carol');
    const make = (id: string) =>
      invoke(limited, { auth: carol, path: { organization: 'acme', agreementbot: id }, body });
    expect((await make('c1')).status).toBe(200);
    expect((await make('c2')).status).toBe(200);
    const over = await make('c3');
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: you are over the limit of 2 agbots',
    });
    expect(await getAgbot('acme', 'c3')).toBeUndefined();
    expect((await getUserCounts('acme', 'carol')).agbots).toBe(2);
    // Updating one of them is not a new agbot.
    expect((await make('c1')).status).toBe(200);
  });

  it('never lets concurrent creates pass maxAgbots', async () => {
    const config = getConfig();
    const limited = putAgbot.withDeps({
      config: () => ({ ...config, limits: { ...config.limits, maxAgbots: 3 } }),
    });
    const dave = await createUser('acme', 'dave');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        invoke(limited, { auth: dave, path: { organization: 'acme', agreementbot: `d${i}` }, body }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
    expect((await getUserCounts('acme', 'dave')).agbots).toBe(3);
  });

  it('lets one of two users creating the same agbot at once win; the other gets 403, not a 500', async () => {
    const before = await getOrgCounts('acme');
    const [first, second] = await Promise.all([send(alice, 'contested'), send(bob, 'contested')]);
    const statuses = [first?.status, second?.status].sort();
    expect(statuses).toEqual([200, 403]);
    const owner = (await getAgbot('acme', 'contested'))?.owner;
    const loser = first?.status === 403 ? first : second;
    expect(owner).toBe(first?.status === 200 ? 'acme/alice' : 'acme/bob');
    expect(loser?.body.code).toBe('access-denied');
    expect((await getOrgCounts('acme')).agbots).toBe(before.agbots + 1);
  });
});

describe('PUT /v1/orgs/{organization}/agbots/{agreementbot}: update', () => {
  it('lets the owner, org admins, hub admins, root and the agbot itself replace it; the owner stays', async () => {
    const owned = (await getUserCounts('acme', 'alice')).agbots;
    await send(alice, 'u1');
    const self = { user: 'acme/u1', secret: 'bot-token' };
    for (const [who, token] of [
      [alice, 'bot-token'],
      [self, 't2'],
      [admin, 't3'],
      [hub, 't4'],
      [ROOT, 't5'],
    ] as const) {
      const result = await send(who, 'u1', { ...body, token, name: `by ${who.user}` });
      expect(result.status).toBe(200);
      expect((await getAgbot('acme', 'u1'))?.name).toBe(`by ${who.user}`);
      if (who === self) self.secret = token;
    }
    expect((await getAgbot('acme', 'u1'))?.owner).toBe('acme/alice');
    expect((await getUserCounts('acme', 'alice')).agbots).toBe(owned + 1);
    // The old token no longer works, the new one does.
    expect((await read({ user: 'acme/u1', secret: 'bot-token' }, 'u1')).status).toBe(401);
    expect((await read({ user: 'acme/u1', secret: 't5' }, 'u1')).status).toBe(200);
    // msgEndPoint left out goes back to "".
    await send(alice, 'u1', { ...body, msgEndPoint: 'x' });
    await send(alice, 'u1', body);
    expect((await getAgbot('acme', 'u1'))?.msgEndPoint).toBe('');
  });

  it('refuses another plain user of the org (403) and leaves the agbot alone', async () => {
    const before = await getAgbot('acme', 'a1');
    const denied = await send(bob, 'a1', { ...body, name: 'stolen' });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain('WRITE_ALL_AGBOTS');
    expect(await getAgbot('acme', 'a1')).toEqual(before);
  });
});

describe('PUT agbot: bad input', () => {
  it.each([
    ['a missing token', { name: 'n', publicKey: 'k' }, "body field 'token' is required"],
    ['a blank token', { ...body, token: '' }, 'the token specified must not be blank'],
    ['a missing name', { token: 't', publicKey: 'k' }, "body field 'name' is required"],
    ['a missing publicKey', { token: 't', name: 'n' }, "body field 'publicKey' is required"],
    ['a number for name', { ...body, name: 5 }, "'name'"],
    ['a number for msgEndPoint', { ...body, msgEndPoint: 5 }, "'msgEndPoint'"],
    ['an unknown field', { ...body, patterns: [] }, "unknown body field 'patterns'"],
    ['a huge publicKey', { ...body, publicKey: 'k'.repeat(70_000) }, "'publicKey'"],
    ['not an object', [1], 'body'],
    ['malformed JSON', '{"token":', 'malformed JSON'],
  ])('answers 400 for %s, naming it, and writes nothing', async (_, payload, msg) => {
    const result = await send(alice, 'bad-input', payload);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain(msg);
    expect(await getAgbot('acme', 'bad-input')).toBeUndefined();
  });
});
