import { PutTransaction } from 'dynamodb-toolbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteUser } from '#functions/users/delete-user';
import { hashSecret } from '#lib/auth/secrets';
import { transactWrite } from '#tables/kernel/transact';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { userKeys } from '#tables/keys/user';
import { NodeEntity } from '#tables/node/entity';
import { NodePolicyEntity } from '#tables/node/policy-entity';
import { getOrgCounts, orgCounterUpdate, userCounterUpdate } from '#tables/org/stats';
import { getUser as readUser } from '#tables/user/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { partitionSortKeys } from '#test/support/partition';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let admin: Auth;
let user: Auth;
let node: Auth;

/** A node with a public key: registered, so it counts in registeredNodes. */
async function createRegisteredNode(org: string, id: string, owner: string) {
  const now = new Date().toISOString();
  await transactWrite([
    NodeEntity.build(PutTransaction)
      .item({ org, id, owner, publicKey: 'KEY', tokenHash: await hashSecret('t'), lastUpdated: now })
      .params(),
    NodePolicyEntity.build(PutTransaction).item({ org, id, lastUpdated: now }).params(),
    orgCounterUpdate(org, { deltas: { nodes: 1, registeredNodes: 1 } }),
    userCounterUpdate(org, owner.split('/')[1] ?? '', { deltas: { nodes: 1, registeredNodes: 1 } }),
  ]);
}

beforeAll(async () => {
  await createOrg('acme');
  hub = await createUser('root', 'hub', { hubAdmin: true });
  admin = await createUser('acme', 'boss', { admin: true });
  user = await createUser('acme', 'alice');
  await createUser('acme', 'bob');
  await createUser('acme', 'carol', { admin: true });
  node = await createNode('acme', 'alice-n1', 'acme/alice');
  await createRegisteredNode('acme', 'alice-n2', 'acme/alice');
  await createAgbot('acme', 'alice-a1', 'acme/alice');
  await createNode('acme', 'bob-n1', 'acme/bob');
});

const remove = (auth: Auth, organization: string, username: string) =>
  invoke(deleteUser, { auth, path: { organization, username } });

describe('DELETE /v1/orgs/{organization}/users/{username}', () => {
  it('refuses nodes and other plain users, and never deletes root/root', async () => {
    expect((await remove(node, 'acme', 'alice')).status).toBe(403);
    expect((await remove(user, 'acme', 'bob')).status).toBe(403);
    const rootUser = await remove(ROOT, 'root', 'root');
    expect(rootUser.status).toBe(400);
    expect(rootUser.body).toEqual({ code: 'invalid-input', msg: 'Cannot delete the exchange root user' });
    expect(await readUser('root', 'root')).toBeDefined();
  });

  it("deletes the user with its nodes (and their policies) and agbots, and the org's counters follow", async () => {
    const before = await getOrgCounts('acme');
    expect(before).toMatchObject({ users: 4, nodes: 3, registeredNodes: 1, agbots: 1 });
    const result = await remove(admin, 'acme', 'alice');
    expect(result.status).toBe(204);
    for (const pk of [
      userKeys.record('acme', 'alice').pk,
      nodeKeys.record('acme', 'alice-n1').pk,
      nodeKeys.record('acme', 'alice-n2').pk,
      agbotKeys.record('acme', 'alice-a1').pk,
    ]) {
      expect(await partitionSortKeys(pk)).toEqual([]);
    }
    expect(await partitionSortKeys(nodeKeys.record('acme', 'bob-n1').pk)).toEqual(['NODE']);
    expect(await getOrgCounts('acme')).toMatchObject({
      users: 3,
      adminUsers: before.adminUsers,
      nodes: 1,
      registeredNodes: 0,
      agbots: 0,
    });
    // Its node's credentials are gone with it.
    expect((await remove(node, 'acme', 'bob')).status).toBe(401);
  });

  it('answers 404 for a missing user and for one a hub admin may not see', async () => {
    const missing = await remove(admin, 'acme', 'alice');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "user 'acme/alice' not found" });
    expect((await remove(hub, 'acme', 'bob')).status).toBe(404);
    expect(await readUser('acme', 'bob')).toBeDefined();
  });

  it('lets a hub admin delete an org admin, counting it out of adminUsers', async () => {
    const before = await getOrgCounts('acme');
    expect((await remove(hub, 'acme', 'carol')).status).toBe(204);
    expect(await getOrgCounts('acme')).toMatchObject({
      users: before.users - 1,
      adminUsers: before.adminUsers - 1,
    });
  });

  it('lets a user delete itself', async () => {
    const bob = { user: 'acme/bob', secret: 'bob-pw' };
    expect((await remove(bob, 'acme', 'bob')).status).toBe(204);
    expect(await partitionSortKeys(nodeKeys.record('acme', 'bob-n1').pk)).toEqual([]);
  });
});
