import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listNodes } from '#functions/nodes/list-nodes';
import { handler as putNode } from '#functions/nodes/put-node';
import { createAgbot, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const list = (auth: Auth, query?: Record<string, string>, organization = 'acme') =>
  invoke(listNodes, { auth, path: { organization }, ...(query ? { query } : {}) });
const ids = (result: { body: { nodes: Record<string, unknown> } }) => Object.keys(result.body.nodes).sort();

let alice: Auth;
let bob: Auth;
let admin: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'admin', { admin: true });
  const put = (auth: Auth, node: string, body: Record<string, unknown>) =>
    invoke(putNode, { auth, path: { organization: 'acme', node }, body: { name: node, ...body } });
  await put(alice, 'rpi-1', { arch: 'arm', nodeType: 'device' });
  await put(alice, 'rpi-2', { arch: 'arm64', clusterNamespace: 'edge' });
  await put(alice, 'k8s_1', {
    arch: 'amd64',
    nodeType: 'cluster',
    clusterNamespace: 'prod',
    isNamespaceScoped: true,
  });
  await put(bob, 'bob-1', { arch: 'amd64' });
});

describe('GET /v1/orgs/{organization}/nodes', () => {
  it('shows an org admin, root and agbots of the org every node', async () => {
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    const all = ['acme/bob-1', 'acme/k8s_1', 'acme/rpi-1', 'acme/rpi-2'];
    for (const who of [admin, ROOT, agbot]) {
      const result = await list(who);
      expect(result.status).toBe(200);
      expect(ids(result)).toEqual(all);
      expect(result.body.lastIndex).toBe(0);
    }
    expect((await list(admin)).body.nodes['acme/rpi-1']).toMatchObject({
      owner: 'acme/alice',
      token: '***************',
    });
  });

  it('shows a plain user only their own nodes and ignores their owner filter', async () => {
    expect(ids(await list(bob))).toEqual(['acme/bob-1']);
    expect(ids(await list(bob, { owner: 'acme/alice' }))).toEqual(['acme/bob-1']);
  });

  it('filters with SQL LIKE wildcards on idfilter, name, arch, owner and clusternamespace', async () => {
    expect(ids(await list(admin, { idfilter: 'acme/rpi-%' }))).toEqual(['acme/rpi-1', 'acme/rpi-2']);
    expect(ids(await list(admin, { idfilter: 'acme/rpi-_' }))).toEqual(['acme/rpi-1', 'acme/rpi-2']);
    expect(ids(await list(admin, { name: 'k8s\\_1' }))).toEqual(['acme/k8s_1']);
    expect(ids(await list(admin, { arch: 'arm%' }))).toEqual(['acme/rpi-1', 'acme/rpi-2']);
    expect(ids(await list(admin, { arch: 'ARM%' })).length).toBe(0);
    expect(ids(await list(admin, { owner: 'acme/b%' }))).toEqual(['acme/bob-1']);
    expect(ids(await list(admin, { clusternamespace: '%' }))).toEqual(['acme/k8s_1', 'acme/rpi-2']);
    expect(ids(await list(admin, { clusternamespace: 'prod' }))).toEqual(['acme/k8s_1']);
  });

  it('filters on nodetype (any case; device also matches stored "") and isNamespaceScoped', async () => {
    expect(ids(await list(admin, { nodetype: 'CLUSTER' }))).toEqual(['acme/k8s_1']);
    expect(ids(await list(admin, { nodetype: 'device' }))).toEqual([
      'acme/bob-1',
      'acme/rpi-1',
      'acme/rpi-2',
    ]);
    expect(ids(await list(admin, { isNamespaceScoped: 'true' }))).toEqual(['acme/k8s_1']);
    expect(ids(await list(admin, { isNamespaceScoped: 'false', arch: 'amd64' }))).toEqual(['acme/bob-1']);
  });

  it('rejects a bad nodetype or isNamespaceScoped with 400', async () => {
    const bad = await list(admin, { nodetype: 'phone' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain(
      "the 'nodetype' url parameter must have one of these values: device, cluster",
    );
    expect((await list(admin, { isNamespaceScoped: 'maybe' })).status).toBe(400);
  });

  it('answers 404 with the empty list when nothing matches', async () => {
    const none = await list(admin, { name: 'zzz%' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ nodes: {}, lastIndex: 0 });
    const carolOrg = await createUser('other', 'carol', { admin: true });
    expect((await list(carolOrg, undefined, 'other')).body).toEqual({ nodes: {}, lastIndex: 0 });
  });

  it('denies nodes, hub admins, other orgs and non-multi-tenant agbots of other orgs', async () => {
    const node = await invoke(putNode, {
      auth: alice,
      path: { organization: 'acme', node: 'me' },
      body: { name: 'me', token: 'me-token', pattern: '', publicKey: '' },
    });
    expect(node.status).toBe(201);
    const asNode = await list({ user: 'acme/me', secret: 'me-token' });
    expect(asNode.status).toBe(403);
    expect(asNode.body.msg).toContain('READ_MY_NODES');
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await list(hub)).status).toBe(403);
    const stranger = await createUser('other', 'dave');
    expect((await list(stranger)).status).toBe(403);
    const otherBot = await createAgbot('other', 'obot', 'other/dave');
    expect((await list(otherBot)).status).toBe(403);
    const mtBot = await createAgbot('IBM', 'mtbot', 'IBM/x');
    expect((await list(mtBot)).status).toBe(200);
    expect((await list({ ...alice, secret: 'wrong' })).status).toBe(401);
  });
});
