import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listCatalog } from '#functions/catalog/list-catalog-services';
import { handler as getService } from '#functions/services/get-service';
import { handler as listServices } from '#functions/services/list-services';
import { handler as postService } from '#functions/services/post-service';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, serviceBody } from './support.ts';

useTestTable();

const org = 'svcr';
const other = 'svcr-other';
const ids = {
  alicePrivate: 'alice-private_1.0.0_amd64',
  alicePublic: 'alice-public_1.0.0_amd64',
  bobPrivate: 'bob-private_1.0.0_amd64',
  device: 'device-svc_1.0.0_amd64',
  cluster: 'cluster-svc_2.0_amd64',
};
const one = (auth: Auth, service: string, organization = org, query?: Record<string, string>) =>
  invoke(getService, { auth, path: { organization, service }, ...(query ? { query } : {}) });
const list = (auth: Auth, query?: Record<string, string>, organization = org) =>
  invoke(listServices, { auth, path: { organization }, ...(query ? { query } : {}) });
const listed = async (auth: Auth, query?: Record<string, string>, organization = org) =>
  Object.keys((await list(auth, query, organization)).body.services ?? {}).sort();
const full = (id: string, o = org) => `${o}/${id}`;

let alice: Auth;
let bob: Auth;
let admin: Auth;
let node: Auth;
let agbot: Auth;
let hub: Auth;
let otherUser: Auth;
let otherAdmin: Auth;
let otherNode: Auth;
let mtAgbot: Auth;

beforeAll(async () => {
  await Promise.all([createOrg(org), createOrg(other), createOrg('IBM', { orgType: 'IBM' })]);
  alice = await createUser(org, 'alice');
  bob = await createUser(org, 'bob');
  admin = await createUser(org, 'admin', { admin: true });
  node = await createNode(org, 'n1', `${org}/alice`);
  agbot = await createAgbot(org, 'a1', `${org}/admin`);
  hub = await createUser('root', 'hub', { hubAdmin: true });
  otherUser = await createUser(other, 'carol');
  otherAdmin = await createUser(other, 'admin', { admin: true });
  otherNode = await createNode(other, 'n2', `${other}/carol`);
  mtAgbot = await createAgbot('IBM', 'mt', 'IBM/x');
  const post = (auth: Auth, body: unknown, organization = org) =>
    invoke(postService, { auth, path: { organization }, body });
  const created = await Promise.all([
    post(alice, serviceBody('alice-private', { requiredServices: [] })),
    post(alice, serviceBody('alice-public', { public: true })),
    post(bob, serviceBody('bob-private')),
    post(bob, serviceBody('device-svc', { deployment: 'd', deploymentSignature: 's' })),
    post(
      admin,
      serviceBody('cluster-svc', { clusterDeployment: 'c', clusterDeploymentSignature: 's', version: '2.0' }),
    ),
    post(otherUser, serviceBody('carol-private'), other),
    post(otherUser, serviceBody('carol-public', { public: true }), other),
    post(ROOT, serviceBody('ibm-private'), 'IBM'),
  ]);
  expect(created.map((r) => r.status)).toEqual(Array(8).fill(201));
  const requiring = await post(
    admin,
    serviceBody('needs-device', {
      requiredServices: [{ url: 'device-svc', org, version: '1.0.0', arch: 'amd64' }],
    }),
  );
  expect(requiring.status).toBe(201);
});

describe('GET /orgs/{org}/services/{service}', () => {
  it('shows a plain user its own and public services; another user’s private one is 404', async () => {
    expect((await one(alice, ids.alicePrivate)).status).toBe(200);
    expect((await one(bob, ids.alicePublic)).status).toBe(200);
    const hidden = await one(bob, ids.alicePrivate);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ code: 'not-found', msg: `service '${full(ids.alicePrivate)}' not found` });
  });

  it('shows org admins, nodes and agbots of the org every service; root and MT agbots too', async () => {
    for (const who of [admin, node, agbot, ROOT, mtAgbot])
      expect((await one(who, ids.bobPrivate)).status).toBe(200);
  });

  it('gives other orgs the public ones, 403 for private ones, 404 for missing ones; hub admins 403', async () => {
    expect((await one(otherUser, ids.alicePublic)).status).toBe(200);
    expect((await one(otherNode, ids.alicePublic)).status).toBe(200);
    expect((await one(otherUser, ids.alicePrivate)).status).toBe(403);
    expect((await one(otherAdmin, ids.alicePrivate)).status).toBe(403);
    const missing = await one(otherUser, 'ghost_1_amd64');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(`resource '${org}/ghost_1_amd64' not found`);
    expect((await one(hub, ids.alicePublic)).status).toBe(403);
  });

  it('answers ?attribute= with the stored text, and the whole service for unknown names', async () => {
    expect((await one(alice, ids.alicePrivate, org, { attribute: 'sharable' })).body).toEqual({
      attribute: 'sharable',
      value: 'multiple',
    });
    expect((await one(alice, ids.alicePrivate, org, { attribute: 'Public' })).body).toEqual({
      attribute: 'Public',
      value: 'false',
    });
    expect((await one(alice, ids.alicePrivate, org, { attribute: 'requiredServices' })).body.value).toBe(
      '[]',
    );
    expect((await one(alice, ids.alicePrivate, org, { attribute: 'nonsense' })).body.services).toBeDefined();
  });
});

describe('GET /orgs/{org}/services', () => {
  it('filters rows by caller (docs/exchange-catalog.md#service-visibility)', async () => {
    expect(await listed(alice)).toEqual([full(ids.alicePrivate), full(ids.alicePublic)]);
    expect((await listed(admin)).length).toBe(6);
    expect((await listed(node)).length).toBe(6);
    expect(await listed(otherUser)).toEqual([full(ids.alicePublic)]);
    expect((await listed(mtAgbot)).length).toBe(6);
    expect((await list(hub)).status).toBe(403);
  });

  it('applies owner, url, version, arch, public, nodetype and requiredurl filters', async () => {
    expect(await listed(admin, { owner: `${org}/bob` })).toEqual([full(ids.bobPrivate), full(ids.device)]);
    expect(await listed(admin, { url: 'alice%' })).toEqual([full(ids.alicePrivate), full(ids.alicePublic)]);
    expect(await listed(admin, { version: '2.0' })).toEqual([full(ids.cluster)]);
    expect(await listed(admin, { public: 'true' })).toEqual([full(ids.alicePublic)]);
    expect(await listed(admin, { nodetype: 'device' })).toEqual([full(ids.device)]);
    expect(await listed(admin, { nodetype: 'CLUSTER' })).toEqual([full(ids.cluster)]);
    expect(await listed(admin, { requiredurl: 'device-svc' })).toEqual([full('needs-device_1.0.0_amd64')]);
    expect(await listed(admin, { arch: 'arm' })).toEqual([]);
  });

  it('answers 404 with the empty map when nothing matches, 400 for bad filters', async () => {
    const none = await list(admin, { arch: 'arm' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ services: {}, lastIndex: 0 });
    expect((await list(admin, { nodetype: 'foo' })).body.msg).toBe(
      "the 'nodetype' url parameter must have one of these values: device, cluster",
    );
    expect((await list(admin, { version: '1.%' })).body.msg).toBe(
      "version '1.%' is not valid version format.",
    );
    expect((await list(admin, { public: 'maybe' })).status).toBe(400);
  });
});

describe('GET /catalog/services', () => {
  const catalog = async (auth: Auth, query?: Record<string, string>) =>
    invoke(listCatalog, { auth, ...(query ? { query } : {}) });
  const catalogIds = async (auth: Auth, query?: Record<string, string>) =>
    Object.keys((await catalog(auth, query)).body.services ?? {}).sort();

  it('shows its own org, IBM (private too) and every public service', async () => {
    const seen = await catalogIds(otherUser);
    expect(seen).toEqual(
      [
        full('carol-private_1.0.0_amd64', other),
        full('carol-public_1.0.0_amd64', other),
        full('ibm-private_1.0.0_amd64', 'IBM'),
        full(ids.alicePublic),
      ].sort(),
    );
  });

  it('shows root and multi-tenant agbots everything; hub admins 403', async () => {
    expect((await catalogIds(ROOT)).length).toBe(9);
    expect((await catalogIds(mtAgbot)).length).toBe(9);
    expect((await catalog(hub)).status).toBe(403);
  });

  it('filters by organization and ignores orgtype; nothing → 404 empty map', async () => {
    expect(await catalogIds(ROOT, { organization: 'IBM', orgtype: 'IBM' })).toEqual([
      full('ibm-private_1.0.0_amd64', 'IBM'),
    ]);
    const none = await catalog(alice, { organization: 'nobody' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ services: {}, lastIndex: 0 });
  });
});
