import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as putPolicy } from '#functions/nodes/put-node-policy';
import { getNodePolicy } from '#tables/node/policy-records';
import { getNode } from '#tables/node/records';
import { getOrgCounts, getUserCounts } from '#tables/org/stats';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const remove = (auth: Auth, node: string, organization = 'acme') =>
  invoke(deleteNode, { auth, path: { organization, node } });

let alice: Auth;
let bob: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
});

describe('DELETE /v1/orgs/{organization}/nodes/{node}', () => {
  it('deletes the node with its policy and uncounts it (registered too) in the org and for the owner', async () => {
    const path = { organization: 'acme', node: 'reg' };
    const body = { name: 'reg', token: 'reg-token', pattern: '', publicKey: '' };
    expect((await invoke(putNode, { auth: alice, path, body })).status).toBe(201);
    const asNode = { user: 'acme/reg', secret: 'reg-token' };
    await invoke(putNode, { auth: asNode, path, body: { ...body, publicKey: 'KEY' } });
    expect((await invoke(putPolicy, { auth: alice, path, body: { label: 'p' } })).status).toBe(201);
    const org = await getOrgCounts('acme');
    const owner = await getUserCounts('acme', 'alice');
    const result = await remove(alice, 'reg');
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    expect(await getNode('acme', 'reg')).toBeUndefined();
    expect(await getNodePolicy('acme', 'reg')).toBeUndefined();
    const orgAfter = await getOrgCounts('acme');
    expect([orgAfter.nodes, orgAfter.registeredNodes]).toEqual([org.nodes - 1, org.registeredNodes - 1]);
    const ownerAfter = await getUserCounts('acme', 'alice');
    expect([ownerAfter.nodes, ownerAfter.registeredNodes]).toEqual([
      owner.nodes - 1,
      owner.registeredNodes - 1,
    ]);
    // The deleted node can no longer authenticate.
    expect((await remove(asNode, 'reg')).status).toBe(401);
  });

  it('answers 404 for a missing node and leaves the counters alone', async () => {
    const before = await getOrgCounts('acme');
    const result = await remove(alice, 'ghost');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    expect(await getOrgCounts('acme')).toEqual(before);
  });

  it('lets the node itself, org admins and root delete; denies other users, hub admins and agbots', async () => {
    const self = await createNode('acme', 'self', 'acme/alice');
    expect((await remove(self, 'self')).status).toBe(204);
    await createNode('acme', 'n2', 'acme/alice');
    expect((await remove(bob, 'n2')).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await remove(hub, 'n2')).status).toBe(403);
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await remove(agbot, 'n2')).status).toBe(403);
    const admin = await createUser('acme', 'admin', { admin: true });
    expect((await remove(admin, 'n2')).status).toBe(204);
    await createNode('acme', 'n3', 'acme/alice');
    expect((await remove(ROOT, 'n3')).status).toBe(204);
  });

  it('counts a node once when it is deleted by several requests at once', async () => {
    await createNode('acme', 'twice', 'acme/alice');
    const before = await getOrgCounts('acme');
    const results = await Promise.all([
      remove(alice, 'twice'),
      remove(alice, 'twice'),
      remove(ROOT, 'twice'),
    ]);
    expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(2);
    expect((await getOrgCounts('acme')).nodes).toBe(before.nodes - 1);
  });
});
