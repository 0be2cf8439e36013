import { beforeAll, describe, expect, it } from 'vitest';
import { handler as orgStatus } from '#functions/admin/org-status';
import { handler as orgstatus } from '#functions/admin/orgstatus';
import { handler as status } from '#functions/admin/status';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createRegisteredNode } from './fixtures.ts';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};

beforeAll(async () => {
  // root org: root (bootstrap) + a hub admin; acme and other: an org admin and a user each.
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  await createOrg('acme');
  await createOrg('other');
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.bob = await createUser('acme', 'bob');
  who.carol = await createUser('other', 'carol', { admin: true });
  who.dave = await createUser('other', 'dave');
  who.n1 = await createRegisteredNode('acme', 'n1', 'acme/bob');
  who.n2 = await createNode('acme', 'n2', 'acme/admin');
  who.n3 = await createNode('other', 'n3', 'other/dave');
  who.a1 = await createAgbot('acme', 'a1', 'acme/admin');
  await createAgbot('acme', 'a2', 'acme/admin');
  await createAgbot('other', 'a3', 'other/carol');
  who.mt = await createAgbot('IBM', 'mt', 'root/root');
});

const get = (auth: Auth) => invoke(status, { auth });
const getOrg = (auth: Auth, organization: string) => invoke(orgStatus, { auth, path: { organization } });

describe('GET /v1/admin/status', () => {
  it('shows root everything, with dbSchemaVersion and no SchemaVersion', async () => {
    const result = await get(ROOT);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      dbSchemaVersion: 62,
      msg: 'Exchange server operating normally',
      numberOfAgbotAgreements: 0,
      numberOfAgbotMsgs: 0,
      numberOfAgbots: 4,
      numberOfNodeAgreements: 0,
      numberOfNodeMsgs: 0,
      numberOfNodes: 3,
      numberOfOrganizations: 4,
      numberOfRegisteredNodes: 1,
      numberOfUnregisteredNodes: 2,
      numberOfUsers: 6,
    });
  });

  it('hides node figures from a hub admin and counts only admins outside org root', async () => {
    const { body } = await get(who.hub as Auth);
    expect(body).toMatchObject({ dbSchemaVersion: 62, numberOfNodes: -1, numberOfNodeMsgs: -1 });
    expect(body).toMatchObject({ numberOfNodeAgreements: -1, numberOfOrganizations: 4, numberOfAgbots: 4 });
    expect(body).not.toHaveProperty('numberOfRegisteredNodes');
    expect(body).not.toHaveProperty('numberOfUnregisteredNodes');
    expect(body.numberOfUsers).toBe(2);
  });

  it('limits an org admin to its org (and IBM for orgs and agbots)', async () => {
    const { body } = await get(who.admin as Auth);
    expect(body).toMatchObject({ dbSchemaVersion: -1, numberOfOrganizations: 2, numberOfAgbots: 3 });
    expect(body).toMatchObject({
      numberOfNodes: 2,
      numberOfRegisteredNodes: 1,
      numberOfUnregisteredNodes: 1,
    });
    expect(body.numberOfUsers).toBe(2);
  });

  it('shows a user its own nodes and itself', async () => {
    const { body } = await get(who.bob as Auth);
    expect(body).toMatchObject({
      numberOfNodes: 1,
      numberOfRegisteredNodes: 1,
      numberOfUnregisteredNodes: 0,
    });
    expect(body).toMatchObject({ numberOfUsers: 1, numberOfOrganizations: 2, numberOfAgbots: 3 });
    const dave = await get(who.dave as Auth);
    expect(dave.body).toMatchObject({ numberOfNodes: 1, numberOfRegisteredNodes: 0, numberOfAgbots: 2 });
  });

  it('refuses nodes and agbots (403) and bad credentials (401)', async () => {
    expect((await get(who.n1 as Auth)).status).toBe(403);
    expect((await get(who.a1 as Auth)).status).toBe(403);
    const wrong = await get({ user: 'acme/bob', secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect((await invoke(status)).status).toBe(401);
  });
});

describe('GET /v1/orgs/{organization}/status', () => {
  it('gives root the org totals with SchemaVersion instead of dbSchemaVersion', async () => {
    const { status: code, body } = await getOrg(ROOT, 'other');
    expect(code).toBe(200);
    expect(body).toEqual({
      msg: 'Exchange server operating normally',
      numberOfAgbotAgreements: 0,
      numberOfAgbotMsgs: 0,
      numberOfAgbots: 1,
      numberOfNodeAgreements: 0,
      numberOfNodeMsgs: 0,
      numberOfNodes: 1,
      numberOfOrganizations: 1,
      numberOfRegisteredNodes: 0,
      numberOfUnregisteredNodes: 1,
      numberOfUsers: 2,
      SchemaVersion: 62,
    });
  });

  it('applies the per-role rules within the org', async () => {
    const admin = await getOrg(who.carol as Auth, 'other');
    expect(admin.body).toMatchObject({ numberOfNodes: 1, numberOfUsers: 2, SchemaVersion: -1 });
    const hub = await getOrg(who.hub as Auth, 'other');
    expect(hub.body).toMatchObject({
      numberOfNodes: -1,
      numberOfUsers: 1,
      SchemaVersion: 62,
      numberOfAgbots: 1,
    });
    expect(hub.body).not.toHaveProperty('numberOfRegisteredNodes');
    const user = await getOrg(who.bob as Auth, 'acme');
    expect(user.body).toMatchObject({ numberOfNodes: 1, numberOfRegisteredNodes: 1, numberOfUsers: 1 });
    const node = await getOrg(who.n1 as Auth, 'acme');
    expect(node.body).toMatchObject({ numberOfNodes: 1, numberOfRegisteredNodes: 1, numberOfUsers: -1 });
    const agbot = await getOrg(who.a1 as Auth, 'acme');
    expect(agbot.body).toMatchObject({ numberOfNodes: 2, numberOfAgbots: 2, numberOfUsers: -1 });
    const mt = await getOrg(who.mt as Auth, 'other');
    expect(mt.body).toMatchObject({ numberOfNodes: 1, numberOfAgbots: 1, numberOfUsers: -1 });
  });

  it('hides the users of org root from everyone but root', async () => {
    expect((await getOrg(who.hub as Auth, 'root')).body.numberOfUsers).toBe(0);
    expect((await getOrg(ROOT, 'root')).body.numberOfUsers).toBe(2);
  });

  it('lets users and nodes read IBM but counts none of their nodes there', async () => {
    const user = await getOrg(who.bob as Auth, 'IBM');
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ numberOfNodes: 0, numberOfUsers: 0, numberOfAgbots: 1 });
    const node = await getOrg(who.n1 as Auth, 'IBM');
    expect(node.status).toBe(200);
    expect(node.body.numberOfNodes).toBe(0);
  });

  it('answers 403 to another org, 404 for a missing org, 400 for a bad id, 401 without credentials', async () => {
    const denied = await getOrg(who.dave as Auth, 'acme');
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('access-denied');
    expect((await getOrg(who.n3 as Auth, 'acme')).status).toBe(403);
    const missing = await getOrg(ROOT, 'nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "org 'nope' not found" });
    expect((await getOrg(ROOT, 'x'.repeat(300))).status).toBe(400);
    expect((await invoke(orgStatus, { path: { organization: 'acme' } })).status).toBe(401);
  });
});

describe('GET /v1/admin/orgstatus', () => {
  it('lists node counts of every org for root, -1s for a hub admin, own org and IBM for an org admin', async () => {
    const root = await invoke(orgstatus, { auth: ROOT });
    expect(root.status).toBe(200);
    expect(root.body).toEqual({
      msg: 'Exchange server operating normally',
      nodes: { IBM: 0, acme: 2, other: 1, root: 0 },
    });
    const hub = await invoke(orgstatus, { auth: who.hub as Auth });
    expect(hub.body.nodes).toEqual({ IBM: -1, acme: -1, other: -1, root: -1 });
    const admin = await invoke(orgstatus, { auth: who.admin as Auth });
    expect(admin.body.nodes).toEqual({ IBM: 0, acme: 2 });
  });

  it('refuses users, nodes and agbots', async () => {
    for (const caller of [who.bob, who.n1, who.a1, who.mt]) {
      const result = await invoke(orgstatus, { auth: caller as Auth });
      expect(result.status).toBe(403);
      expect(result.body.msg).toContain('Access denied');
    }
  });
});

describe('status figures', () => {
  // Last: it changes the totals the tests above expect.
  it('follow the counters as records are added', async () => {
    await createUser('acme', 'eve');
    await createNode('acme', 'n4', 'acme/eve');
    const { body } = await get(ROOT);
    expect(body).toMatchObject({ numberOfUsers: 7, numberOfNodes: 4, numberOfUnregisteredNodes: 3 });
    expect((await invoke(orgstatus, { auth: ROOT })).body.nodes.acme).toBe(3);
  });
});
