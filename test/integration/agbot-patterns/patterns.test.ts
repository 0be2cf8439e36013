import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteOne } from '#functions/agbot-patterns/delete-pattern';
import { handler as deleteAll } from '#functions/agbot-patterns/delete-patterns';
import { handler as getOne } from '#functions/agbot-patterns/get-pattern';
import { handler as list } from '#functions/agbot-patterns/list-patterns';
import { handler as postPattern } from '#functions/agbot-patterns/post-pattern';
import { insertAgbotPattern, listAgbotPatterns } from '#tables/agbot/pattern-records';
import { seedPattern } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-05-06T07:08:09.010Z');
const post = postPattern.withDeps({ clock: { now: () => at } });
const base = (agreementbot = 'a1', organization = 'acme') => ({ organization, agreementbot });
const add = (auth: Auth, body: unknown, agbot = 'a1', org = 'acme') =>
  invoke(post, { auth, path: base(agbot, org), body });
const read = (auth: Auth, query?: Record<string, string>, agbot = 'a1', org = 'acme') =>
  invoke(list, { auth, path: base(agbot, org), ...(query ? { query } : {}) });
const readOne = (auth: Auth, id: string, agbot = 'a1') =>
  invoke(getOne, { auth, path: { ...base(agbot), deploymentpattern: id } });
const removeOne = (auth: Auth, id: string, agbot = 'a1') =>
  invoke(deleteOne, { auth, path: { ...base(agbot), deploymentpattern: id } });
const removeAll = (auth: Auth, agbot = 'a1', org = 'acme') =>
  invoke(deleteAll, { auth, path: base(agbot, org) });
const stored = async (agbot = 'a1') => (await listAgbotPatterns('acme', agbot)).map((r) => r.patternId);

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let a1: Auth;
let a2: Auth;
let node: Auth;
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
  node = await createNode('acme', 'n1', 'acme/alice');
  for (const name of ['p1', 'hub', 'root', 'kept']) await seedPattern('acme', name);
  await seedPattern('IBM', 'p2');
  await seedPattern('IBM', 'pub', { public: true });
});

describe('POST .../agbots/{agreementbot}/deployment/patterns', () => {
  it('adds a served pattern keyed <patternOrgid>_<pattern>, nodeOrgid defaulting to the pattern org', async () => {
    const result = await add(alice, { patternOrgid: 'acme', pattern: 'p1' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'pattern acme_p1 added' });
    const got = await readOne(alice, 'acme_p1');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      patterns: {
        acme_p1: { patternOrgid: 'acme', pattern: 'p1', nodeOrgid: 'acme', lastUpdated: at.toISOString() },
      },
    });
  });

  it('lets the agbot itself, org admins, hub admins and root add its own org`s patterns (existing, or "*")', async () => {
    expect((await add(a1, { patternOrgid: 'acme', pattern: '*', nodeOrgid: 'acme' })).status).toBe(201);
    expect((await add(hub, { patternOrgid: 'acme', pattern: 'hub', nodeOrgid: null })).status).toBe(201);
    expect((await add(ROOT, { patternOrgid: 'acme', pattern: 'root' })).status).toBe(201);
    expect(await stored()).toEqual(['acme_*', 'acme_hub', 'acme_p1', 'acme_root']);
    expect((await removeOne(a1, 'acme_*')).status).toBe(204);
  });

  it('refuses, for every caller, another org`s private pattern and other orgs` nodes: only multi-tenant agbots serve those', async () => {
    for (const caller of [a1, admin, hub, ROOT]) {
      const privateOne = await add(caller, { patternOrgid: 'IBM', pattern: 'p2', nodeOrgid: 'acme' });
      expect(privateOne.status).toBe(403);
      expect(privateOne.body.msg).toBe(
        "Access denied: pattern 'IBM/p2' is not public; agbot 'acme/a1' may serve only patterns of org 'acme' and public patterns of other orgs",
      );
      // nodeOrgid defaults to the pattern's org: IBM's nodes are not acme's.
      expect((await add(caller, { patternOrgid: 'IBM', pattern: 'pub', nodeOrgid: '' })).status).toBe(403);
      expect((await add(caller, { patternOrgid: 'IBM', pattern: '*' })).status).toBe(403);
      const otherNodes = await add(caller, { patternOrgid: 'acme', pattern: 'p1', nodeOrgid: 'other' });
      expect(otherNodes.status).toBe(403);
      expect(otherNodes.body.msg).toBe(
        "Access denied: agbot 'acme/a1' may serve only nodes of org 'acme'; only multi-tenant agbots (org IBM) serve other orgs' nodes",
      );
    }
    expect(await stored()).toEqual(['acme_hub', 'acme_p1', 'acme_root']);
  });

  it('serves another org`s public patterns (by name, "*", or still to come) to its own org`s nodes, as upstream`s agbot driver declares', async () => {
    expect((await add(alice, { patternOrgid: 'IBM', pattern: '*', nodeOrgid: 'acme' })).status).toBe(201);
    expect((await add(a1, { patternOrgid: 'IBM', pattern: 'pub', nodeOrgid: 'acme' })).status).toBe(201);
    expect((await add(admin, { patternOrgid: 'other', pattern: 'later', nodeOrgid: 'acme' })).status).toBe(
      201,
    );
    expect(await stored()).toEqual(['IBM_*', 'IBM_pub', 'acme_hub', 'acme_p1', 'acme_root', 'other_later']);
    for (const id of ['IBM_*', 'IBM_pub', 'other_later'])
      expect((await removeOne(alice, id)).status).toBe(204);
  });

  it('accepts a pattern of its org that does not exist yet (upstream 2.154.0 does; it is served once it appears)', async () => {
    const result = await add(alice, { patternOrgid: 'acme', pattern: 'ghost' });
    expect(result.status).toBe(201);
    expect(await stored()).toContain('acme_ghost');
    expect((await removeOne(alice, 'acme_ghost')).status).toBe(204);
    // Rows of other orgs, as declarations made before the rule left them, for the reads below.
    const lastUpdated = at.toISOString();
    await insertAgbotPattern({
      org: 'acme',
      id: 'a1',
      patternId: 'other_*',
      patternOrgid: 'other',
      pattern: '*',
      nodeOrgid: 'acme',
      lastUpdated,
    });
    await insertAgbotPattern({
      org: 'acme',
      id: 'a1',
      patternId: 'IBM_p2',
      patternOrgid: 'IBM',
      pattern: 'p2',
      nodeOrgid: '',
      lastUpdated,
    });
  });

  it('answers 409 already-exists for a pattern the agbot serves already, changing nothing', async () => {
    const again = await add(a1, { patternOrgid: 'acme', pattern: 'p1', nodeOrgid: '' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 'already-exists',
      msg: "pattern 'acme_p1' for agbot 'acme/a1' already exists",
    });
    expect((await readOne(alice, 'acme_p1')).body.patterns.acme_p1.nodeOrgid).toBe('acme');
  });

  it('refuses nodes, other users and agbots, other orgs; 401 for bad credentials', async () => {
    const body = { patternOrgid: 'acme', pattern: 'nope' };
    for (const caller of [node, bob, a2, stranger]) expect((await add(caller, body)).status).toBe(403);
    expect((await add({ ...alice, secret: 'wrong' }, body)).status).toBe(401);
    expect(await stored()).not.toContain('acme_nope');
  });

  it('answers 404 for a missing agbot', async () => {
    const result = await add(alice, { patternOrgid: 'acme', pattern: 'p' }, 'ghost');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "agbot 'acme/ghost' not found" });
    expect(await stored('ghost')).toEqual([]);
  });

  it.each([
    ['malformed JSON', '{"patternOrgid": "acme",', /malformed JSON/],
    ['an unknown field', { patternOrgid: 'acme', pattern: 'x', colour: 'red' }, /'colour'/],
    ['a missing pattern', { patternOrgid: 'acme' }, /'pattern' is required/],
    ['a wrong type', { patternOrgid: 'acme', pattern: 5 }, /'pattern'/],
    ['an empty patternOrgid', { patternOrgid: '', pattern: 'x' }, /'patternOrgid'/],
    ['a non-string nodeOrgid', { patternOrgid: 'acme', pattern: 'x', nodeOrgid: 1 }, /'nodeOrgid'/],
    ['a body that is not an object', '[]', /body/],
  ])('answers 400 naming the field for %s, writing nothing', async (_, body, message) => {
    const before = await stored();
    const result = await add(alice, body);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toMatch(message);
    expect(await stored()).toEqual(before);
  });
});

describe('GET .../deployment/patterns', () => {
  it('lists every served pattern for the owner, the agbot, admins and root', async () => {
    for (const caller of [alice, a1, admin, hub, ROOT]) {
      const result = await read(caller);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body.patterns).sort()).toEqual([
        'IBM_p2',
        'acme_hub',
        'acme_p1',
        'acme_root',
        'other_*',
      ]);
      expect(result.body).not.toHaveProperty('lastIndex');
    }
  });

  it('filters exactly, with % wildcards, and with empty values that match empty fields', async () => {
    const keys = async (query: Record<string, string>) =>
      Object.keys((await read(alice, query)).body.patterns).sort();
    expect(await keys({ deployment_pattern: 'p1' })).toEqual(['acme_p1']);
    expect(await keys({ deployment_pattern: 'p%' })).toEqual(['IBM_p2', 'acme_p1']);
    expect(await keys({ deployment_pattern_organization: 'acme', deployment_pattern: '%o%' })).toEqual([
      'acme_root',
    ]);
    expect(await keys({ node_organization: '' })).toEqual(['IBM_p2']);
    expect(await keys({ node_organization: 'ac_e%' })).toEqual([
      'acme_hub',
      'acme_p1',
      'acme_root',
      'other_*',
    ]);
    expect(await keys({ deployment_pattern: '*' })).toEqual(['other_*']);
    expect(await keys({ node_organization: 'ac_e' })).toEqual([]);
  });

  it('answers 404 with an empty map when nothing matches', async () => {
    const result = await read(alice, { deployment_pattern_organization: 'nobody' });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ patterns: {} });
  });

  it('refuses nodes, users who do not own the agbot, other agbots and other orgs', async () => {
    for (const caller of [node, bob, a2, stranger]) expect((await read(caller)).status).toBe(403);
    expect((await read(stranger, undefined, 'ghost')).status).toBe(404);
    expect((await read(alice, undefined, 'ghost')).status).toBe(404);
  });

  it('answers 400 naming a filter that is too long', async () => {
    const result = await read(alice, { deployment_pattern: 'x'.repeat(300) });
    expect(result.status).toBe(400);
    expect(result.body.msg).toMatch(/'deployment_pattern'/);
  });
});

describe('GET and DELETE one served pattern', () => {
  it('answers 404 with an empty map for a pattern the agbot does not serve', async () => {
    const result = await readOne(alice, 'acme_none');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ patterns: {} });
    expect((await readOne(node, 'acme_p1')).status).toBe(403);
  });

  it('deletes one pattern (204), then answers 404', async () => {
    expect((await removeOne(bob, 'acme_p1')).status).toBe(403);
    expect((await removeOne(node, 'acme_p1')).status).toBe(403);
    expect((await removeOne(a1, 'acme_p1')).status).toBe(204);
    expect(await stored()).not.toContain('acme_p1');
    const again = await removeOne(alice, 'acme_p1');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "pattern 'acme_p1' for agbot 'acme/a1' not found" });
  });
});

describe('DELETE .../deployment/patterns', () => {
  it('deletes every pattern of this agbot only, then answers 404', async () => {
    await add(bob, { patternOrgid: 'acme', pattern: 'kept' }, 'a2');
    for (let i = 0; i < 30; i++) await add(alice, { patternOrgid: 'acme', pattern: `bulk${i}` });
    expect((await removeAll(bob)).status).toBe(403);
    expect((await removeAll(node)).status).toBe(403);
    expect((await removeAll(alice)).status).toBe(204);
    expect(await stored()).toEqual([]);
    expect(await stored('a2')).toEqual(['acme_kept']);
    const again = await removeAll(alice);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "no patterns for agbot 'acme/a1' found" });
    expect((await read(alice)).status).toBe(404);
    expect((await removeAll(alice, 'ghost')).status).toBe(404);
  });
});
