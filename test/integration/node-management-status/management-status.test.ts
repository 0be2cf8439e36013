import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteStatus } from '#functions/node-management-status/delete-management-status';
import { handler as getStatus } from '#functions/node-management-status/get-management-status';
import { handler as listStatuses } from '#functions/node-management-status/get-management-statuses';
import { handler as putStatus } from '#functions/node-management-status/put-management-status';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { getManagementStatus, listManagementStatuses } from '#tables/node/management-status-records';
import { seedManagementPolicy } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-05-01T10:00:00.000Z');
const put = putStatus.withDeps({ clock: { now: () => at } });
const path = (node: string, mgmtpolicy?: string, organization = 'acme') => ({
  organization,
  node,
  ...(mgmtpolicy === undefined ? {} : { mgmtpolicy }),
});
const store = (auth: Auth, node: string, policy: string, body: unknown) =>
  invoke(put, { auth, path: path(node, policy), body });
const readAll = (auth: Auth, node: string) => invoke(listStatuses, { auth, path: path(node) });
const readOne = (auth: Auth, node: string, policy: string) =>
  invoke(getStatus, { auth, path: path(node, policy) });
const remove = (auth: Auth, node: string, policy: string) =>
  invoke(deleteStatus, { auth, path: path(node, policy) });

const upgrade = (over: Record<string, unknown> = {}) => ({
  agentUpgradePolicyStatus: { scheduledTime: '2031-05-02T00:00:00Z', status: 'waiting', ...over },
});

let alice: Auth;
let bob: Auth;
let admin: Auth;
let n1: Auth;
let n2: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  n1 = await createNode('acme', 'n1', 'acme/alice');
  n2 = await createNode('acme', 'n2', 'acme/alice');
  await seedManagementPolicy('acme', 'upgrade1');
  await seedManagementPolicy('acme', 'another');
});

describe('node management status', () => {
  it('answers 404 with the empty map before any status exists', async () => {
    const all = await readAll(alice, 'n1');
    expect(all.status).toBe(404);
    expect(all.body).toEqual({ managementStatus: {}, lastIndex: 0 });
    const one = await readOne(n1, 'n1', 'upgrade1');
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ managementStatus: {}, lastIndex: 0 });
  });

  it('the owner creates a status for a policy of the org; it reads back in upstream shape', async () => {
    const result = await store(alice, 'n1', 'upgrade1', upgrade());
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      code: 'ok',
      msg: "status added or updated for management policy 'acme/upgrade1' for node 'acme/n1'.",
    });
    const expected = {
      managementStatus: {
        'acme/upgrade1': {
          agentUpgradePolicyStatus: {
            scheduledTime: '2031-05-02T00:00:00Z',
            startTime: '',
            endTime: '',
            upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
            status: 'waiting',
            errorMessage: '',
            lastUpdated: at.toISOString(),
          },
        },
      },
      lastIndex: 0,
    };
    expect((await readAll(alice, 'n1')).body).toEqual(expected);
    const one = await readOne(n1, 'n1', 'upgrade1');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(expected);
  });

  it('the node itself replaces its status (every field) and lists several, ordered by policy', async () => {
    const body = upgrade({
      status: 'initiated',
      startTime: '2031-05-02T00:00:05Z',
      upgradedVersions: { softwareVersion: '2.31.0', certVersion: null },
      errorMessage: null,
    });
    expect((await store(n1, 'n1', 'upgrade1', body)).status).toBe(201);
    expect((await store(admin, 'n1', 'another', upgrade())).status).toBe(201);
    const all = await readAll(n1, 'n1');
    expect(Object.keys(all.body.managementStatus)).toEqual(['acme/another', 'acme/upgrade1']);
    expect(all.body.managementStatus['acme/upgrade1'].agentUpgradePolicyStatus).toMatchObject({
      status: 'initiated',
      startTime: '2031-05-02T00:00:05Z',
      upgradedVersions: { softwareVersion: '2.31.0', certVersion: '', configVersion: '' },
    });
    const stored = await getManagementStatus('acme', 'n1', 'acme/upgrade1');
    expect(stored?.status).toBe('initiated');
  });

  it('rejects bodies without scheduledTime, with unknown fields or oversized values', async () => {
    const missing = await store(alice, 'n1', 'upgrade1', { agentUpgradePolicyStatus: { status: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('invalid-input');
    expect((await store(alice, 'n1', 'upgrade1', { ...upgrade(), colour: 'red' })).status).toBe(400);
    expect((await store(alice, 'n1', 'upgrade1', upgrade({ k8s: {} }))).status).toBe(400);
    expect((await store(alice, 'n1', 'upgrade1', upgrade({ errorMessage: 'x'.repeat(5000) }))).status).toBe(
      400,
    );
    expect((await store(alice, 'n1', 'upgrade1', {})).status).toBe(400);
    expect((await readOne(alice, 'n1', 'upgrade1')).body.managementStatus['acme/upgrade1']).toBeDefined();
  });

  it('applies the node access rules', async () => {
    expect((await readAll(bob, 'n1')).status).toBe(403);
    expect((await store(bob, 'n1', 'p', upgrade())).status).toBe(403);
    expect((await remove(bob, 'n1', 'upgrade1')).status).toBe(403);
    // Another node of the same org may neither read nor write it.
    expect((await readAll(n2, 'n1')).status).toBe(403);
    expect((await store(n2, 'n1', 'p', upgrade())).status).toBe(403);
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await readAll(agbot, 'n1')).status).toBe(200);
    expect((await store(agbot, 'n1', 'p', upgrade())).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await readAll(hub, 'n1')).status).toBe(403);
    expect((await readAll(ROOT, 'n1')).status).toBe(200);
    const stranger = await createUser('other', 'eve');
    expect((await readAll(stranger, 'n1')).status).toBe(403);
    expect((await readAll({ ...alice, secret: 'wrong' }, 'n1')).status).toBe(401);
  });

  it('answers 404 for a missing node, writing nothing', async () => {
    const result = await store(alice, 'ghost', 'upgrade1', upgrade());
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    expect(await listManagementStatuses('acme', 'ghost')).toEqual([]);
    expect((await readAll(alice, 'ghost')).status).toBe(404);
  });

  it('deletes one status (then 404), leaving the others', async () => {
    expect((await remove(n1, 'n1', 'another')).status).toBe(204);
    const again = await remove(alice, 'n1', 'another');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      code: 'not-found',
      msg: "status for management policy 'acme/another' for node 'acme/n1' not found",
    });
    expect(Object.keys((await readAll(alice, 'n1')).body.managementStatus)).toEqual(['acme/upgrade1']);
  });

  it('goes away with its node', async () => {
    expect((await store(alice, 'n2', 'upgrade1', upgrade())).status).toBe(201);
    expect(await listManagementStatuses('acme', 'n2')).toHaveLength(1);
    expect((await invoke(deleteNode, { auth: alice, path: path('n2') })).status).toBe(204);
    expect(await listManagementStatuses('acme', 'n2')).toEqual([]);
  });
});
