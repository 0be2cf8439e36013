import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAll } from '#functions/agbot-policies/delete-policies';
import { handler as deleteOne } from '#functions/agbot-policies/delete-policy';
import { handler as getOne } from '#functions/agbot-policies/get-policy';
import { handler as list } from '#functions/agbot-policies/list-policies';
import { handler as postPolicy } from '#functions/agbot-policies/post-policy';
import { insertAgbotPolicy, listAgbotPolicies } from '#tables/agbot/policy-records';
import { seedDeploymentPolicy } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-05-06T07:08:09.010Z');
const post = postPolicy.withDeps({ clock: { now: () => at } });
const base = (agreementbot = 'a1', organization = 'acme') => ({ organization, agreementbot });
const add = (auth: Auth, body: unknown, agbot = 'a1', org = 'acme') =>
  invoke(post, { auth, path: base(agbot, org), body });
const read = (auth: Auth, query?: Record<string, string>, agbot = 'a1') =>
  invoke(list, { auth, path: base(agbot), ...(query ? { query } : {}) });
const readOne = (auth: Auth, id: string, agbot = 'a1') =>
  invoke(getOne, { auth, path: { ...base(agbot), deploymentpolicy: id } });
const removeOne = (auth: Auth, id: string, agbot = 'a1') =>
  invoke(deleteOne, { auth, path: { ...base(agbot), deploymentpolicy: id } });
const removeAll = (auth: Auth, agbot = 'a1') => invoke(deleteAll, { auth, path: base(agbot) });
const stored = async (agbot = 'a1', org = 'acme') =>
  (await listAgbotPolicies(org, agbot)).map((record) => record.policyId);

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let a1: Auth;
let a2: Auth;
let mt: Auth;
let legacyMt: Auth;
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
  await createUser('IBM', 'ibmer');
  a1 = await createAgbot('acme', 'a1', 'acme/alice');
  a2 = await createAgbot('acme', 'a2', 'acme/bob');
  mt = await createAgbot('IBM', 'mt', 'root/hub');
  legacyMt = await createAgbot('IBM', 'legacy', 'IBM/ibmer');
  node = await createNode('acme', 'n1', 'acme/alice');
  const names = ['bp1', 'bp2', 'bp3', 'shared', ...Array.from({ length: 30 }, (_, i) => `bulk${i}`)];
  for (const name of names) await seedDeploymentPolicy('acme', name);
});

describe('POST .../agbots/{agreementbot}/deployment/policies', () => {
  it('adds a served policy keyed <businessPolOrgid>_<businessPol>, nodeOrgid defaulting to the policy org', async () => {
    const result = await add(alice, { businessPolOrgid: 'acme', businessPol: 'bp1' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'businessPol acme_bp1 added' });
    const got = await readOne(a1, 'acme_bp1');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      businessPols: {
        acme_bp1: {
          businessPolOrgid: 'acme',
          businessPol: 'bp1',
          nodeOrgid: 'acme',
          lastUpdated: at.toISOString(),
        },
      },
    });
  });

  it('lets the agbot itself, org admins, hub admins and root add its own org`s policies, and nothing else', async () => {
    expect((await add(a1, { businessPolOrgid: 'acme', businessPol: 'bp2', nodeOrgid: 'acme' })).status).toBe(
      201,
    );
    expect((await add(admin, { businessPolOrgid: 'acme', businessPol: 'bp3', nodeOrgid: null })).status).toBe(
      201,
    );
    // Only multi-tenant agbots serve other orgs, whoever declares it.
    expect((await add(hub, { businessPolOrgid: 'other', businessPol: 'hub', nodeOrgid: '' })).status).toBe(
      403,
    );
    expect(
      (await add(ROOT, { businessPolOrgid: 'IBM', businessPol: 'root', nodeOrgid: 'other' })).status,
    ).toBe(403);
    // A policy still to come is accepted, as upstream 2.154.0 does (it is served once it appears).
    expect((await add(admin, { businessPolOrgid: 'acme', businessPol: 'ghost' })).status).toBe(201);
    expect(await stored()).toEqual(['acme_bp1', 'acme_bp2', 'acme_bp3', 'acme_ghost']);
    expect((await removeOne(admin, 'acme_ghost')).status).toBe(204);
    expect(await stored()).toEqual(['acme_bp1', 'acme_bp2', 'acme_bp3']);
    // Rows of other orgs, as declarations made before the rule left them, for the reads below.
    const lastUpdated = at.toISOString();
    const legacy = { org: 'acme', id: 'a1', lastUpdated };
    await insertAgbotPolicy({
      ...legacy,
      policyId: 'other_hub',
      businessPolOrgid: 'other',
      businessPol: 'hub',
      nodeOrgid: '',
    });
    await insertAgbotPolicy({
      ...legacy,
      policyId: 'IBM_root',
      businessPolOrgid: 'IBM',
      businessPol: 'root',
      nodeOrgid: 'other',
    });
  });

  it("refuses users, org admins and agbots serving another org's policy or to another org's nodes", async () => {
    for (const [caller, body] of [
      [alice, { businessPolOrgid: 'other', businessPol: 'x' }],
      [admin, { businessPolOrgid: 'acme', businessPol: 'x', nodeOrgid: 'other' }],
      [a1, { businessPolOrgid: 'IBM', businessPol: 'x', nodeOrgid: 'IBM' }],
    ] as const) {
      const result = await add(caller, body);
      expect(result.status).toBe(403);
      expect(result.body.code).toBe('access-denied');
    }
    expect(await stored()).not.toContain('other_x');
    // A multi-tenant agbot made by root or a hub admin serves any org's policies; one a plain
    // IBM user made (before only they could) serves none.
    expect((await add(mt, { businessPolOrgid: 'acme', businessPol: 'shared' }, 'mt', 'IBM')).status).toBe(
      201,
    );
    expect(await stored('mt', 'IBM')).toEqual(['acme_shared']);
    const legacy = await add(legacyMt, { businessPolOrgid: 'acme', businessPol: 'shared' }, 'legacy', 'IBM');
    expect(legacy.status).toBe(403);
  });

  it('answers 409 already-exists for a policy the agbot serves already', async () => {
    const again = await add(alice, { businessPolOrgid: 'acme', businessPol: 'bp1' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 'already-exists',
      msg: "businessPol 'acme_bp1' for agbot 'acme/a1' already exists",
    });
  });

  it('refuses nodes, other users and agbots, other orgs; 404 for a missing agbot; 401 for bad credentials', async () => {
    const body = { businessPolOrgid: 'acme', businessPol: 'nope' };
    for (const caller of [node, bob, a2, stranger]) expect((await add(caller, body)).status).toBe(403);
    expect((await add({ ...alice, secret: 'wrong' }, body)).status).toBe(401);
    expect((await add(alice, body, 'ghost')).status).toBe(404);
    expect(await stored()).not.toContain('acme_nope');
  });

  it.each([
    ['malformed JSON', '{"businessPol"', /malformed JSON/],
    [
      'an unknown field',
      { businessPolOrgid: 'acme', businessPol: 'x', deployment_policy: 'x' },
      /'deployment_policy'/,
    ],
    ['a missing businessPolOrgid', { businessPol: 'x' }, /'businessPolOrgid' is required/],
    ['a wrong type', { businessPolOrgid: 'acme', businessPol: ['x'] }, /'businessPol'/],
    ['an empty businessPol', { businessPolOrgid: 'acme', businessPol: '' }, /'businessPol'/],
    [
      'a non-string nodeOrgid',
      { businessPolOrgid: 'acme', businessPol: 'x', nodeOrgid: true },
      /'nodeOrgid'/,
    ],
  ])('answers 400 naming the field for %s, writing nothing', async (_, body, message) => {
    const before = await stored();
    const result = await add(alice, body);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toMatch(message);
    expect(await stored()).toEqual(before);
  });
});

describe('GET .../deployment/policies', () => {
  it('lists the served policies for the owner, the agbot, admins and root; no lastIndex', async () => {
    for (const caller of [alice, a1, admin, hub, ROOT]) {
      const result = await read(caller);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body.businessPols)).toHaveLength(5);
      expect(result.body).not.toHaveProperty('lastIndex');
    }
  });

  it('filters exactly, with % wildcards, and with empty values that match empty fields', async () => {
    const keys = async (query: Record<string, string>) =>
      Object.keys((await read(alice, query)).body.businessPols).sort();
    expect(await keys({ deployment_policy: 'bp2' })).toEqual(['acme_bp2']);
    expect(await keys({ deployment_policy: 'bp%' })).toEqual(['acme_bp1', 'acme_bp2', 'acme_bp3']);
    expect(await keys({ deployment_policy_organization: 'IBM' })).toEqual(['IBM_root']);
    expect(await keys({ node_organization: '' })).toEqual(['other_hub']);
    expect(await keys({ node_organization: 'oth%', deployment_policy: 'root' })).toEqual(['IBM_root']);
    const none = await read(alice, { deployment_policy: 'missing' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ businessPols: {} });
    const tooLong = await read(alice, { node_organization: 'x'.repeat(257) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toMatch(/'node_organization'/);
  });

  it('refuses nodes, users who do not own the agbot, other agbots and other orgs', async () => {
    for (const caller of [node, bob, a2, stranger]) expect((await read(caller)).status).toBe(403);
    expect((await readOne(node, 'acme_bp1')).status).toBe(403);
    expect((await read(alice, undefined, 'ghost')).status).toBe(404);
  });
});

describe('DELETE served policies', () => {
  it('deletes one (204), then answers 404 naming it; GET one answers 404 with an empty map', async () => {
    expect((await removeOne(bob, 'acme_bp1')).status).toBe(403);
    expect((await removeOne(alice, 'acme_bp1')).status).toBe(204);
    const again = await removeOne(a1, 'acme_bp1');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      code: 'not-found',
      msg: "businessPol 'acme_bp1' for agbot 'acme/a1' not found",
    });
    const gone = await readOne(alice, 'acme_bp1');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ businessPols: {} });
  });

  it('deletes all of this agbot (more than one batch), leaving other agbots alone, then answers 404', async () => {
    for (let i = 0; i < 30; i++) await add(alice, { businessPolOrgid: 'acme', businessPol: `bulk${i}` });
    expect((await removeAll(node)).status).toBe(403);
    expect((await removeAll(a1)).status).toBe(204);
    expect(await stored()).toEqual([]);
    expect(await stored('mt', 'IBM')).toEqual(['acme_shared']);
    const again = await removeAll(alice);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "no business policies for agbot 'acme/a1' found" });
  });
});
