import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getAgbot } from '#functions/agbots/get-agbot';
import { handler as listAgbots } from '#functions/agbots/list-agbots';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const list = (auth: Auth, query: Record<string, string> = {}, organization = 'acme') =>
  invoke(listAgbots, { auth, path: { organization }, query });
const ids = (result: { body: { agbots: Record<string, unknown> } }) => Object.keys(result.body.agbots).sort();
const getOne = (
  auth: Auth,
  agreementbot: string,
  query: Record<string, string> = {},
  organization = 'acme',
) => invoke(getAgbot, { auth, path: { organization, agreementbot }, query });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let bot1: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  await createOrg('empty');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  bot1 = await createAgbot('acme', 'bot1', 'acme/alice');
  await createAgbot('acme', 'bot2', 'acme/alice');
  await createAgbot('acme', 'x-bot', 'acme/bob');
  await createAgbot('other', 'bot1', 'other/olga');
  await createAgbot('IBM', 'mt', 'IBM/ibmer');
  node = await createNode('acme', 'n1', 'acme/alice');
});

describe('GET /v1/orgs/{organization}/agbots', () => {
  it('lists the org’s agbots to any user of the org, org admins and root', async () => {
    for (const who of [alice, bob, admin, ROOT]) {
      const result = await list(who);
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual(['acme/bot1', 'acme/bot2', 'acme/x-bot']);
      expect(result.body.lastIndex).toBe(0);
      expect(result.body.agbots['acme/bot1']).toMatchObject({
        id: 'acme/bot1',
        orgid: 'acme',
        owner: 'acme/alice',
        token: '***************',
      });
    }
  });

  it('filters by idfilter, name and owner, exactly or with % wildcards, each on its own', async () => {
    expect(ids(await list(alice, { idfilter: 'acme/bot%' }))).toEqual(['acme/bot1', 'acme/bot2']);
    expect(ids(await list(alice, { idfilter: 'acme/bot1' }))).toEqual(['acme/bot1']);
    expect(ids(await list(alice, { idfilter: '%bot' }))).toEqual(['acme/x-bot']);
    expect(ids(await list(alice, { idfilter: 'ac%t2' }))).toEqual(['acme/bot2']);
    expect(ids(await list(alice, { name: 'bot_' }))).toEqual([]);
    expect(ids(await list(alice, { name: 'bot%' }))).toEqual(['acme/bot1', 'acme/bot2']);
    expect(ids(await list(alice, { owner: 'acme/bob' }))).toEqual(['acme/x-bot']);
    // Upstream would use LIKE for owner only when name has a %; here owner's own % decides.
    expect(ids(await list(alice, { owner: 'acme/%' }))).toHaveLength(3);
    expect(ids(await list(alice, { owner: 'acme/alice', idfilter: '%2', name: 'bot%' }))).toEqual([
      'acme/bot2',
    ]);
  });

  it('answers 404 with the empty map when nothing matches, or an idfilter of another org', async () => {
    for (const query of [{ idfilter: 'other/%' }, { name: 'nobody' }] as Record<string, string>[]) {
      const result = await list(alice, query);
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ agbots: {}, lastIndex: 0 });
    }
    expect((await list(ROOT, {}, 'empty')).status).toBe(404);
  });

  it('shows hub admins only root and IBM agbots (upstream), root every org', async () => {
    expect((await list(hub)).status).toBe(404);
    expect(ids(await list(hub, {}, 'IBM'))).toEqual(['IBM/mt']);
    expect(ids(await list(ROOT, {}, 'other'))).toEqual(['other/bot1']);
  });

  it('refuses nodes, agbots, users of other orgs (403) and bad credentials (401)', async () => {
    const olga = await createUser('other', 'olga');
    for (const who of [node, bot1, olga]) expect((await list(who)).status).toBe(403);
    expect((await list({ user: 'acme/alice', secret: 'nope' })).status).toBe(401);
    expect((await list({ user: 'acme/ghost', secret: 'nope' })).status).toBe(401);
  });

  it('answers 400 for a filter too long, naming it', async () => {
    const result = await list(alice, { name: 'n'.repeat(5000) });
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain("query field 'name'");
  });
});

describe('GET /v1/orgs/{organization}/agbots/{agreementbot}', () => {
  it('returns the agbot to users of the org, hub admins, root and the agbot itself', async () => {
    for (const who of [alice, bob, admin, hub, ROOT, bot1]) {
      const result = await getOne(who, 'bot1');
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual(['acme/bot1']);
    }
  });

  it('returns only the attribute asked for (names in any case), the token masked', async () => {
    expect((await getOne(alice, 'bot1', { attribute: 'owner' })).body).toEqual({
      attribute: 'owner',
      value: 'acme/alice',
    });
    expect((await getOne(alice, 'bot1', { attribute: 'NAME' })).body).toEqual({
      attribute: 'NAME',
      value: 'bot1',
    });
    expect((await getOne(alice, 'bot1', { attribute: 'token' })).body.value).toBe('***************');
    for (const attribute of ['id', 'orgid', 'msgEndPoint', 'lastHeartbeat', 'publicKey']) {
      const result = await getOne(alice, 'bot1', { attribute });
      expect(result.status).toBe(200);
      expect(Object.keys(result.body)).toEqual(['attribute', 'value']);
    }
    // Empty means the whole record, as upstream.
    expect(ids(await getOne(alice, 'bot1', { attribute: '' }))).toEqual(['acme/bot1']);
  });

  it('answers 400 naming an unknown attribute', async () => {
    const result = await getOne(alice, 'bot1', { attribute: 'colour' });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain("'attribute'");
    expect(result.body.msg).toContain("unknown agbot attribute 'colour'");
  });

  it('refuses nodes and other agbots (readers are users and the agbot itself), other orgs; 404s missing ones', async () => {
    const bot2 = { user: 'acme/bot2', secret: 'bot2-token' };
    for (const who of [node, bot2]) expect((await getOne(who, 'bot1')).status).toBe(403);
    const stranger = await createUser('other', 'olga2');
    expect((await getOne(stranger, 'bot1')).status).toBe(403);
    // Another org's missing agbot: 404 on read, as upstream.
    expect((await getOne(stranger, 'ghost')).status).toBe(404);
    const missing = await getOne(alice, 'ghost');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: 'not found' });
    expect((await getOne({ user: 'acme/bot1', secret: 'wrong' }, 'bot1')).status).toBe(401);
  });
});
