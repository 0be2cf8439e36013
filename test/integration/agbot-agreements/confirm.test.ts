import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putAgreement } from '#functions/agbot-agreements/put-agreement';
import { handler as confirm } from '#functions/orgs/confirm-agreement';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const service = { orgid: 'acme', pattern: 'acme/pat', url: 'svc' };
const ask = (auth: Auth, agreementId: unknown, organization = 'acme') =>
  invoke(confirm, { auth, path: { organization }, body: { agreementId } });
const add = (auth: Auth, org: string, agreementbot: string, agreement: string, state: string) =>
  invoke(putAgreement, {
    auth,
    path: { organization: org, agreementbot, agreement },
    body: { service, state },
  });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let bot: Auth;
let sibling: Auth;
let bobBot: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  sibling = await createAgbot('acme', 'sibling', 'acme/alice');
  bobBot = await createAgbot('acme', 'bob-bot', 'acme/bob');
  await createAgbot('other', 'far', 'acme/alice');
  node = await createNode('acme', 'n1', 'acme/alice');
  expect((await add(bot, 'acme', 'bot', 'active-1', 'signed')).status).toBe(201);
  expect((await add(bot, 'acme', 'bot', 'idle-1', '')).status).toBe(201);
  expect((await add(ROOT, 'other', 'far', 'far-1', 'signed')).status).toBe(201);
  expect((await add(bobBot, 'acme', 'bob-bot', 'bobs-1', 'signed')).status).toBe(201);
});

describe('POST /v1/orgs/{organization}/agreements/confirm', () => {
  it('confirms an active agreement to the agbot, its sibling agbots and its owner (201)', async () => {
    for (const who of [bot, sibling, alice]) {
      const result = await ask(who, 'active-1');
      expect(result.status).toBe(201);
      expect(result.body).toEqual({ code: 'ok', msg: 'agreement active' });
    }
  });

  it('matches agbots of any org: {organization} only decides who may ask', async () => {
    expect((await ask(alice, 'far-1')).status).toBe(201);
    expect((await ask(bot, 'far-1')).status).toBe(201);
  });

  it('answers 404 for an agreement that is missing, not active, or not the caller’s owner’s', async () => {
    for (const [who, id] of [
      [alice, 'nope'],
      [alice, 'idle-1'],
      [bob, 'active-1'],
      [bobBot, 'active-1'],
      [admin, 'active-1'],
      [ROOT, 'active-1'],
      [alice, 'bobs-1'],
    ] as const) {
      const result = await ask(who, id);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ code: 'not-found', msg: 'agreement not found or not active' });
    }
    expect((await ask(bob, 'bobs-1')).status).toBe(201);
  });

  it('refuses nodes (403 "access denied"), callers of other orgs (403) and bad credentials (401)', async () => {
    const denied = await ask(node, 'active-1');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'access-denied', msg: 'access denied' });
    const stranger = await createUser('other', 'olga');
    expect((await ask(stranger, 'active-1')).status).toBe(403);
    expect((await ask({ user: 'acme/alice', secret: 'wrong' }, 'active-1')).status).toBe(401);
    // Hub admins may ask (for agbots they own), root too.
    expect((await ask(hub, 'active-1')).status).toBe(404);
  });

  it.each([
    ['a missing agreementId', {}, "body field 'agreementId' is required"],
    ['an empty agreementId', { agreementId: '' }, "'agreementId'"],
    ['a number', { agreementId: 5 }, "'agreementId'"],
    ['an unknown field', { agreementId: 'a', x: 1 }, "unknown body field 'x'"],
  ])('answers 400 for %s', async (_, body, msg) => {
    const result = await invoke(confirm, { auth: alice, path: { organization: 'acme' }, body });
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain(msg);
  });
});
