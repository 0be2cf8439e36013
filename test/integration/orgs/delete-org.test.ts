import { PutTransaction } from 'dynamodb-toolbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { handler as getOrg } from '#functions/orgs/get-org';
import { handler as postOrg } from '#functions/orgs/post-org';
import { transactWrite } from '#tables/kernel/transact';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { orgKeys } from '#tables/keys/org';
import { userKeys } from '#tables/keys/user';
import { NodePolicyEntity } from '#tables/node/policy-entity';
import { listOrgCounts } from '#tables/org/stats';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { partitionSortKeys } from '#test/support/partition';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let hub: Auth;
let admin: Auth;

async function populate(org: string) {
  await createOrg(org);
  await createUser(org, 'alice');
  await createUser(org, 'bob', { admin: true });
  await createNode(org, 'n1', `${org}/alice`);
  await createNode(org, 'n2', `${org}/bob`);
  await createAgbot(org, 'a1', `${org}/alice`);
  await transactWrite([
    NodePolicyEntity.build(PutTransaction)
      .item({ org, id: 'n1', label: 'policy', lastUpdated: new Date().toISOString() })
      .params(),
  ]);
}

const partitions = (org: string) => [
  orgKeys.record(org).pk,
  userKeys.record(org, 'alice').pk,
  userKeys.record(org, 'bob').pk,
  nodeKeys.record(org, 'n1').pk,
  nodeKeys.record(org, 'n2').pk,
  agbotKeys.record(org, 'a1').pk,
];

beforeAll(async () => {
  hub = await createUser('root', 'hub', { hubAdmin: true });
  await populate('doomed');
  await populate('keeper');
  admin = await createUser('keeper', 'boss', { admin: true });
});

describe('DELETE /v1/orgs/{organization}', () => {
  it('deletes the org with its users, nodes (and policies), agbots and counters', async () => {
    expect(await partitionSortKeys(nodeKeys.record('doomed', 'n1').pk)).toEqual(['NODE', 'POLICY']);
    const result = await invoke(deleteOrg, { auth: ROOT, path: { organization: 'doomed' } });
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    for (const pk of partitions('doomed')) expect(await partitionSortKeys(pk)).toEqual([]);
    expect((await listOrgCounts()).has('doomed')).toBe(false);
    // Another org's records with the same ids are untouched.
    expect((await partitionSortKeys(nodeKeys.record('keeper', 'n1').pk)).sort()).toEqual(['NODE', 'POLICY']);
    expect(await partitionSortKeys(userKeys.record('keeper', 'alice').pk)).toContain('USER');
    expect((await listOrgCounts()).get('keeper')?.nodes).toBe(2);
    // The id is free again.
    const recreated = await invoke(postOrg, {
      auth: ROOT,
      path: { organization: 'doomed' },
      body: { label: 'again', description: 'd' },
    });
    expect(recreated.status).toBe(201);
    expect(
      (await invoke(getOrg, { auth: ROOT, path: { organization: 'doomed' } })).body.orgs.doomed.label,
    ).toBe('again');
  });

  it('answers 404 for a missing org and 403 for org root, even to root', async () => {
    const missing = await invoke(deleteOrg, { auth: ROOT, path: { organization: 'ghost' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "org 'ghost' not found" });
    for (const auth of [ROOT, hub]) {
      const rootOrg = await invoke(deleteOrg, { auth, path: { organization: 'root' } });
      expect(rootOrg.status).toBe(403);
      expect(rootOrg.body.code).toBe('access-denied');
    }
    expect(await partitionSortKeys(orgKeys.record('root').pk)).toContain('ORG');
  });

  it('refuses org admins (even of that org) and lets hub admins delete', async () => {
    const denied = await invoke(deleteOrg, { auth: admin, path: { organization: 'keeper' } });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain('DELETE_ORG');
    expect(await partitionSortKeys(orgKeys.record('keeper').pk)).toContain('ORG');
    expect((await invoke(deleteOrg, { auth: hub, path: { organization: 'keeper' } })).status).toBe(204);
    for (const pk of [...partitions('keeper'), userKeys.record('keeper', 'boss').pk]) {
      expect(await partitionSortKeys(pk)).toEqual([]);
    }
  });
});
