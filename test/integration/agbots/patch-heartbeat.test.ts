import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAgbot } from '#functions/agbots/get-agbot';
import { handler as patchAgbot } from '#functions/agbots/patch-agbot';
import { handler as heartbeat } from '#functions/agbots/post-heartbeat';
import { getAgbot as readAgbot } from '#tables/agbot/records';
import { dynamoCallCount } from '#tables/client';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2032-01-02T03:04:05.006Z');
const clock = { now: () => at };
const patch = patchAgbot.withDeps({ clock });
const beat = heartbeat.withDeps({ clock });
const send = (auth: Auth, body: unknown, agreementbot = 'bot', organization = 'acme') =>
  invoke(patch, { auth, path: { organization, agreementbot }, body });
const pulse = (auth: Auth, agreementbot = 'bot', organization = 'acme') =>
  invoke(beat, { auth, path: { organization, agreementbot } });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let bot: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  node = await createNode('acme', 'n1', 'acme/alice');
});

describe('PATCH /v1/orgs/{organization}/agbots/{agreementbot}', () => {
  it('sets the one attribute given (and lastHeartbeat), answering 200', async () => {
    for (const [attribute, value] of [
      ['name', 'renamed'],
      ['msgEndPoint', 'ep'],
      ['publicKey', 'PK'],
    ] as const) {
      const result = await send(alice, { [attribute]: value });
      expect(result.status).toBe(200);
      expect(result.body).toEqual({
        code: 'ok',
        msg: `attribute '${attribute}' of agbot 'acme/bot' updated`,
      });
      const stored = await readAgbot('acme', 'bot');
      expect(stored?.[attribute]).toBe(value);
      expect(stored?.lastHeartbeat).toBe('2032-01-02T03:04:05.006Z[UTC]');
    }
  });

  it('stores a new token hashed: the old one stops working, the new one works', async () => {
    const before = (await readAgbot('acme', 'bot'))?.tokenHash;
    expect((await send(bot, { token: 'fresh' })).status).toBe(200);
    const after = (await readAgbot('acme', 'bot'))?.tokenHash;
    expect(after).not.toBe(before);
    expect(after).toMatch(/^\$scrypt\$/);
    const read = (auth: Auth) =>
      invoke(getAgbot, { auth, path: { organization: 'acme', agreementbot: 'bot' } });
    expect((await read(bot)).status).toBe(401);
    bot = { user: 'acme/bot', secret: 'fresh' };
    expect((await read(bot)).status).toBe(200);
  });

  it.each([
    ['no attribute', {}, 'exactly one of'],
    ['only nulls', { name: null, token: null }, 'exactly one of'],
    ['two attributes', { name: 'a', publicKey: 'b' }, 'not 2 of them'],
    ['an empty token', { token: '' }, 'the token can not be set to the empty string'],
    ['an unknown field', { colour: 'red' }, "unknown body field 'colour'"],
    ['a number', { name: 7 }, "'name'"],
    ['malformed JSON', '{', 'malformed JSON'],
  ])('answers 400 for %s and changes nothing', async (_, body, msg) => {
    const before = await readAgbot('acme', 'bot');
    const result = await send(alice, body);
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain(msg);
    expect(await readAgbot('acme', 'bot')).toEqual(before);
  });

  it('lets org admins, hub admins and root patch; refuses other users and nodes; 404s a missing agbot', async () => {
    for (const who of [admin, hub, ROOT]) expect((await send(who, { name: who.user })).status).toBe(200);
    for (const who of [bob, node]) expect((await send(who, { name: 'nope' })).status).toBe(403);
    expect((await readAgbot('acme', 'bot'))?.name).toBe('root/root');
    const missing = await send(alice, { name: 'x' }, 'ghost');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("agbot 'acme/ghost' not found");
    expect(await readAgbot('acme', 'ghost')).toBeUndefined();
  });
});

describe('POST /v1/orgs/{organization}/agbots/{agreementbot}/heartbeat', () => {
  it('sets lastHeartbeat only, for the agbot itself in two DynamoDB calls (authentication included)', async () => {
    const before = await readAgbot('acme', 'bot');
    await pulse(bot);
    const calls = dynamoCallCount();
    const result = await pulse(bot);
    expect(dynamoCallCount() - calls).toBeLessThanOrEqual(2);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'agbot updated' });
    const after = await readAgbot('acme', 'bot');
    expect(after).toEqual({ ...before, lastHeartbeat: '2032-01-02T03:04:05.006Z[UTC]' });
  });

  it('lets the owner, admins, hub admins and root send it; refuses other users and nodes; 404s a missing agbot', async () => {
    for (const who of [alice, admin, hub, ROOT]) expect((await pulse(who)).status).toBe(201);
    for (const who of [bob, node]) expect((await pulse(who)).status).toBe(403);
    const missing = await pulse(alice, 'ghost');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("agbot 'acme/ghost' not found");
    expect(await readAgbot('acme', 'ghost')).toBeUndefined();
    expect((await pulse({ user: 'acme/bot', secret: 'wrong' })).status).toBe(401);
  });
});
