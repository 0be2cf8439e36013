import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postService } from '#functions/services/post-service';
import { handler as putService } from '#functions/services/put-service';
import { handler as putKey } from '#functions/services/put-service-key';
import { deleteOrgCascade, deleteUserCascade } from '#tables/cascade';
import { getService, listPublicServices, rewriteService } from '#tables/service/records';
import { createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, changeRows, partitionKeys, serviceBody } from './support.ts';

useTestTable();

const post = async (auth: Auth, organization: string, url: string, extra: Record<string, unknown> = {}) => {
  const result = await invoke(postService, { auth, path: { organization }, body: serviceBody(url, extra) });
  expect(result.status).toBe(201);
  return `${url}_1.0.0_amd64`;
};

describe('deleting a user', () => {
  let alice: Auth;
  beforeAll(async () => {
    await Promise.all([createOrg('cu'), createOrg('cu-b')]);
    alice = await createUser('cu', 'alice');
    await createUser('cu', 'bob');
  });

  it('deletes the services it owns, in its org and (taken over by PUT) in another, with their children', async () => {
    const own = await post(alice, 'cu', 'own', { public: true });
    await invoke(putKey, {
      auth: alice,
      path: { organization: 'cu', service: own, keyid: 'k' },
      body: 'key',
    });
    const bobs = await post(await createUser('cu', 'kept'), 'cu', 'kept');
    // A service of another org that alice owns (upstream: taken over by a PUT), moved to her
    // through the table operation PUT uses.
    const elsewhereAdmin = await createUser('cu-b', 'boss', { admin: true });
    const elsewhere = await post(elsewhereAdmin, 'cu-b', 'elsewhere');
    const current = await getService('cu-b', elsewhere);
    expect(current).toBeDefined();
    if (current)
      expect(await rewriteService(current, { ...current, owner: 'cu/alice' }, 'created/modified')).toBe(
        'updated',
      );
    expect(await deleteUserCascade('cu', 'alice')).toBe(true);
    expect(await getService('cu', own)).toBeUndefined();
    expect(await getService('cu-b', elsewhere)).toBeUndefined();
    expect(await getService('cu', bobs)).toBeDefined();
    expect(await partitionKeys(`SERVICE#cu/${own}`)).toEqual([]);
    expect(await partitionKeys('USER#cu/alice')).toEqual([]);
    expect((await listPublicServices()).map((s) => s.id)).not.toContain(own);
    expect(await changeRows('cu-b')).toContainEqual({
      resource: 'service',
      id: elsewhere,
      operation: 'deleted',
      public: false,
    });
    // The PUT path moves ownership too (the count and link follow).
    const rootTakes = await invoke(putService, {
      auth: ROOT,
      path: { organization: 'cu', service: bobs },
      body: serviceBody('kept'),
    });
    expect(rootTakes.status).toBe(201);
    expect(await partitionKeys('USER#root/root')).toContain(`OWNS#SERVICE#cu/${bobs}`);
  });
});

describe('deleting an org', () => {
  it("deletes its services (with children and public copies) and its users' services elsewhere", async () => {
    await Promise.all([createOrg('co'), createOrg('co-keep')]);
    const carol = await createUser('co', 'carol');
    const keeper = await createUser('co-keep', 'keeper');
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(carol, 'co', `svc-${i}`, { public: i % 3 === 0 })),
    );
    const kept = await post(keeper, 'co-keep', 'kept');
    const rootOwned = await post(ROOT, 'co', 'root-owned');
    await deleteOrgCascade('co');
    for (const id of [...ids, rootOwned]) expect(await getService('co', id)).toBeUndefined();
    expect((await listPublicServices()).filter((s) => s.org === 'co')).toEqual([]);
    expect(await partitionKeys('USER#co/carol')).toEqual([]);
    expect(await partitionKeys('USER#root/root')).not.toContain(`OWNS#SERVICE#co/${rootOwned}`);
    expect(await getService('co-keep', kept)).toBeDefined();
  });
});
