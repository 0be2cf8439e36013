import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { handler as deleteUser } from '#functions/users/delete-user';
import { listSecrets } from '#tables/secret/records';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, call, useTempMasterKey } from './support.ts';

useTestTable();
useTempMasterKey();

const names = async (org: string) => (await listSecrets(org)).map((entry) => entry.name);

describe('cascades', () => {
  let admin: Auth;
  let alice: Auth;
  beforeAll(async () => {
    await createOrg('ca');
    admin = await createUser('ca', 'boss', { admin: true });
    alice = await createUser('ca', 'alice');
    await createUser('ca', 'bob');
    await createNode('ca', 'n1', 'ca/boss');
    await createNode('ca', 'n2', 'ca/alice');
    for (const name of ['keep', 'node/n1/a', 'node/n2/a', 'node/n3/a'])
      await call('PUT', `/orgs/ca/secrets/${name}`, admin, { key: 'k', value: 'v' });
    for (const name of ['user/alice/a', 'user/alice/node/n1/b', 'user/alice/node/n3/b'])
      await call('PUT', `/orgs/ca/secrets/${name}`, alice, { key: 'k', value: 'v' });
  });

  it('deleting a node deletes its org-node and user-node secrets, nothing else', async () => {
    const answer = await invoke(deleteNode, { auth: admin, path: { organization: 'ca', node: 'n1' } });
    expect(answer.status).toBe(204);
    expect(await names('ca')).toEqual([
      'keep',
      'node/n2/a',
      'node/n3/a',
      'user/alice/a',
      'user/alice/node/n3/b',
    ]);
  });

  it("deleting a user deletes its secrets and its nodes' secrets", async () => {
    const answer = await invoke(deleteUser, { auth: admin, path: { organization: 'ca', username: 'alice' } });
    expect(answer.status).toBe(204);
    expect(await names('ca')).toEqual(['keep', 'node/n3/a']);
  });

  it('deleting an org deletes all its secrets', async () => {
    const answer = await invoke(deleteOrg, { auth: ROOT, path: { organization: 'ca' } });
    expect(answer.status).toBe(204);
    expect(await names('ca')).toEqual([]);
  });
});
