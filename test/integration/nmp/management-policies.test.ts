import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putVersions } from '#functions/agent-file-versions/put-agent-file-versions';
import { handler as postChanges } from '#functions/changes/post-changes';
import { handler as deletePolicy } from '#functions/management-policies/delete-policy';
import { handler as getPolicy } from '#functions/management-policies/get-policy';
import { handler as listPolicies } from '#functions/management-policies/list-policies';
import { handler as postPolicy } from '#functions/management-policies/post-policy';
import { handler as putPolicy } from '#functions/management-policies/put-policy';
import { handler as putStatus } from '#functions/node-management-status/put-management-status';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { handler as deleteUser } from '#functions/users/delete-user';
import { getConfig } from '#lib/config';
import { maxChangeId, sequencePendingChanges } from '#tables/feed/changes';
import { getManagementPolicy, listManagementPolicies } from '#tables/management-policy/records';
import { getManagementStatus } from '#tables/node/management-status-records';
import { orgChangeRows } from '#test/support/changes';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const at = new Date('2031-05-01T10:00:00.123Z');
const later = new Date('2031-05-02T11:00:00.456Z');
const post = postPolicy.withDeps({ clock: { now: () => at } });
const put = putPolicy.withDeps({ clock: { now: () => later } });
const path = (mgmtpolicy: string, organization = 'acme') => ({ organization, mgmtpolicy });
const body = (extra: Record<string, unknown> = {}) => ({
  label: 'upgrade web nodes',
  patterns: ['acme/web', 'db'],
  enabled: true,
  start: 'now',
  startWindow: 300,
  agentUpgradePolicy: { manifest: 'acme/manifest-1', allowDowngrade: false },
  ...extra,
});
const create = (name: string, extra: Record<string, unknown> = {}, auth = who.admin as Auth) =>
  invoke(post, { auth, path: path(name), body: body(extra) });
const statusBody = { agentUpgradePolicyStatus: { scheduledTime: '2031-05-02T00:00:00Z', status: 'waiting' } };
const storeStatus = (auth: Auth, node: string, policy: string) =>
  invoke(putStatus, { auth, path: { organization: 'acme', node, mgmtpolicy: policy }, body: statusBody });

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  await createOrg('IBM');
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.admin2 = await createUser('acme', 'admin2', { admin: true });
  who.bob = await createUser('acme', 'bob');
  who.otherAdmin = await createUser('other', 'oa', { admin: true });
  who.ibmAdmin = await createUser('IBM', 'ibmadmin', { admin: true });
  who.node = await createNode('acme', 'n1', 'acme/bob');
  who.node2 = await createNode('acme', 'n2', 'acme/bob');
  who.otherNode = await createNode('other', 'o1', 'other/oa');
  who.agbot = await createAgbot('acme', 'a1', 'acme/admin');
});

describe('POST, GET and list /v1/orgs/{org}/managementpolicies', () => {
  it('creates a policy owned by the caller with upstream defaults; GET answers it in the map, as upstream does', async () => {
    const created = await create('p1');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ code: 'ok', msg: "management policy 'acme/p1' created" });
    const got = await invoke(getPolicy, { auth: who.node as Auth, path: path('p1') });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      managementPolicy: {
        'acme/p1': {
          owner: 'acme/admin',
          label: 'upgrade web nodes',
          description: 'upgrade web nodes',
          constraints: [],
          properties: [],
          patterns: ['acme/web', 'db'],
          enabled: true,
          start: 'now',
          startWindow: 300,
          agentUpgradePolicy: { allowDowngrade: false, manifest: 'acme/manifest-1' },
          created: '2031-05-01T10:00:00.123000Z[UTC]',
          lastUpdated: '2031-05-01T10:00:00.123000Z[UTC]',
        },
      },
      lastIndex: 0,
    });
  });

  it('a duplicate POST is 403 already-exists (hzn then PUTs) and changes nothing', async () => {
    const again = await create('p1', { label: 'changed' });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ code: 'already-exists', msg: "management policy 'acme/p1' already exists" });
    expect((await getManagementPolicy('acme', 'p1'))?.label).toBe('upgrade web nodes');
  });

  it('fills the defaults of a bare body: start now, window 0 (negative stored as 0), no upgrade policy', async () => {
    const minimal = { label: 'bare', enabled: false, constraints: ['purpose == "edge"'], startWindow: -5 };
    expect((await invoke(post, { auth: who.admin as Auth, path: path('bare'), body: minimal })).status).toBe(
      201,
    );
    const stored = (await invoke(getPolicy, { auth: who.bob as Auth, path: path('bare') })).body;
    expect(stored.managementPolicy['acme/bare']).toMatchObject({
      constraints: ['purpose == "edge"'],
      patterns: [],
      start: 'now',
      startWindow: 0,
      agentUpgradePolicy: { allowDowngrade: false, manifest: '' },
    });
  });

  it('accepts nulls for absent lists, as Go clients send them', async () => {
    const goBody = body({ constraints: null, properties: null, description: null });
    expect((await invoke(post, { auth: who.admin as Auth, path: path('go'), body: goBody })).status).toBe(
      201,
    );
  });

  it('lists by name with upstream filters (exact or LIKE); none is 404 with the empty map', async () => {
    const all = await invoke(listPolicies, { auth: who.agbot as Auth, path: { organization: 'acme' } });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body.managementPolicy)).toEqual(['acme/bare', 'acme/go', 'acme/p1']);
    const list = (query: Record<string, string>) =>
      invoke(listPolicies, { auth: who.bob as Auth, path: { organization: 'acme' }, query });
    expect(Object.keys((await list({ manifest: 'acme/manifest%' })).body.managementPolicy)).toEqual([
      'acme/go',
      'acme/p1',
    ]);
    expect(Object.keys((await list({ idfilter: 'acme/b%' })).body.managementPolicy)).toEqual(['acme/bare']);
    expect(Object.keys((await list({ owner: 'acme/admin', label: 'bare' })).body.managementPolicy)).toEqual([
      'acme/bare',
    ]);
    const none = await list({ description: 'nothing%' });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ managementPolicy: {}, lastIndex: 0 });
    const empty = await invoke(listPolicies, {
      auth: who.otherAdmin as Auth,
      path: { organization: 'other' },
    });
    expect(empty.status).toBe(404);
  });

  it('answers one attribute as text, case-insensitively; an unknown one is 400; a missing policy 404', async () => {
    const attribute = (name: string, policy = 'p1') =>
      invoke(getPolicy, { auth: who.bob as Auth, path: path(policy), query: { attribute: name } });
    expect((await attribute('startWindow')).body).toEqual({ attribute: 'startWindow', value: '300' });
    expect((await attribute('ALLOWDOWNGRADE')).body).toEqual({ attribute: 'ALLOWDOWNGRADE', value: 'false' });
    expect((await attribute('patterns')).body.value).toBe('["acme/web","db"]');
    expect((await attribute('manifest')).body.value).toBe('acme/manifest-1');
    expect((await attribute('owner')).body.value).toBe('acme/admin');
    expect((await attribute('colour')).status).toBe(400);
    expect((await attribute('label', 'absent')).status).toBe(404);
    const missing = await invoke(getPolicy, { auth: who.bob as Auth, path: path('absent') });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ managementPolicy: {}, lastIndex: 0 });
  });
});

describe('validation: a rejected body writes nothing', () => {
  const rejected = async (name: string, extra: Record<string, unknown>, field: RegExp) => {
    const answer = await create(name, extra);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.code).toBe('invalid-input');
    expect(answer.body.msg).toMatch(field);
    expect(await getManagementPolicy('acme', name)).toBeUndefined();
  };

  it('refuses constraints and patterns together, empty lists included (upstream presence rule)', async () => {
    await rejected('both', { constraints: ['a == b'] }, /you can not specify both constraints and patterns/);
    await rejected('both-empty', { constraints: [], patterns: [] }, /both constraints and patterns/);
  });

  it('refuses a start that is neither now nor RFC 3339', async () => {
    await rejected('start', { start: 'tomorrow' }, /'start'/);
    await rejected('start2', { start: '2031-05-01 10:00:00' }, /'start'/);
  });

  it('refuses a window that is not an integer, constraints that do not parse, properties that do not fit', async () => {
    await rejected('window', { startWindow: 1.5 }, /startWindow/);
    await rejected('constraint', { patterns: null, constraints: ['a == '] }, /constraints\.0/);
    await rejected('ptype', { properties: [{ name: 'n', type: 'int', value: 'x' }] }, /properties\.0/);
    await rejected('ptype2', { properties: [{ name: 'n', type: 'colour', value: 'x' }] }, /properties\.0/);
  });

  it('refuses unknown fields (owner, lastUpdated...) and a missing label or enabled', async () => {
    await rejected('unknown', { owner: 'acme/bob' }, /owner/);
    await rejected('manifest', { agentUpgradePolicy: { manifest: 'a b' } }, /manifest/);
    const noEnabled = await invoke(post, {
      auth: who.admin as Auth,
      path: path('noenabled'),
      body: { label: 'x' },
    });
    expect(noEnabled.status).toBe(400);
    expect(noEnabled.body.msg).toMatch(/enabled/);
  });
});

describe('PUT and DELETE', () => {
  it('PUT replaces every field but the owner and created, bumps lastUpdated and records a modified change', async () => {
    const before = await maxChangeId();
    const replaced = await invoke(put, {
      auth: who.admin2 as Auth,
      path: path('p1'),
      body: body({ label: 'new label', enabled: false, start: '2031-06-01T00:00:00Z' }),
    });
    expect(replaced.status).toBe(201);
    expect(replaced.body).toEqual({ code: 'ok', msg: 'management policy updated' });
    const stored = await getManagementPolicy('acme', 'p1');
    expect(stored).toMatchObject({
      owner: 'acme/admin',
      label: 'new label',
      description: 'new label',
      enabled: false,
      start: '2031-06-01T00:00:00Z',
      created: '2031-05-01T10:00:00.123000Z[UTC]',
      lastUpdated: '2031-05-02T11:00:00.456000Z[UTC]',
    });
    const rows = (await orgChangeRows('acme')).filter((r) => r.changeId > before);
    expect(rows.map((r) => [r.resource, r.id, r.operation, r.public])).toEqual([
      ['mgmtpolicy', 'p1', 'modified', false],
    ]);
  });

  it('PUT of a missing policy is 404 and creates nothing (upstream: 201, nothing changed)', async () => {
    const answer = await invoke(put, { auth: who.admin as Auth, path: path('nope'), body: body() });
    expect(answer.status).toBe(404);
    expect(await getManagementPolicy('acme', 'nope')).toBeUndefined();
  });

  it('statuses need their policy: a status for a missing policy is 404, for an existing one 201', async () => {
    const missing = await storeStatus(who.node as Auth, 'n1', 'nope');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("management policy 'acme/nope' not found");
    expect(await getManagementStatus('acme', 'n1', 'acme/nope')).toBeUndefined();
    expect((await storeStatus(who.node as Auth, 'n1', 'p1')).status).toBe(201);
  });

  it('DELETE removes the policy and every node status for it (not those of other policies), with a deleted change', async () => {
    await create('doomed');
    expect((await storeStatus(who.node as Auth, 'n1', 'doomed')).status).toBe(201);
    expect((await storeStatus(who.node2 as Auth, 'n2', 'doomed')).status).toBe(201);
    const before = await maxChangeId();
    const deleted = await invoke(deletePolicy, { auth: who.admin as Auth, path: path('doomed') });
    expect(deleted.status).toBe(204);
    expect(await getManagementPolicy('acme', 'doomed')).toBeUndefined();
    expect(await getManagementStatus('acme', 'n1', 'acme/doomed')).toBeUndefined();
    expect(await getManagementStatus('acme', 'n2', 'acme/doomed')).toBeUndefined();
    expect(await getManagementStatus('acme', 'n1', 'acme/p1')).toBeDefined();
    const rows = (await orgChangeRows('acme')).filter(
      (r) => r.changeId > before && r.resource === 'mgmtpolicy',
    );
    expect(rows.map((r) => [r.id, r.operation])).toEqual([['doomed', 'deleted']]);
    expect((await invoke(deletePolicy, { auth: who.admin as Auth, path: path('doomed') })).status).toBe(404);
  });

  it('deleting a node removes its statuses; the policy stays', async () => {
    const n3 = await createNode('acme', 'n3', 'acme/bob');
    expect((await storeStatus(n3, 'n3', 'p1')).status).toBe(201);
    expect(
      (await invoke(deleteNode, { auth: who.admin as Auth, path: { organization: 'acme', node: 'n3' } }))
        .status,
    ).toBe(204);
    expect(await getManagementStatus('acme', 'n3', 'acme/p1')).toBeUndefined();
    expect(await getManagementPolicy('acme', 'p1')).toBeDefined();
  });
});

describe('cascades and the limit', () => {
  it("deleting the owning user deletes the user's policies and their statuses; others stay", async () => {
    const owner = await createUser('acme', 'leaving', { admin: true });
    await create('owned', {}, owner);
    expect((await storeStatus(who.node as Auth, 'n1', 'owned')).status).toBe(201);
    const gone = await invoke(deleteUser, {
      auth: who.admin as Auth,
      path: { organization: 'acme', username: 'leaving' },
    });
    expect(gone.status).toBe(204);
    expect(await getManagementPolicy('acme', 'owned')).toBeUndefined();
    expect(await getManagementStatus('acme', 'n1', 'acme/owned')).toBeUndefined();
    expect(await getManagementPolicy('acme', 'p1')).toBeDefined();
  });

  it('deleting the org deletes its policies', async () => {
    await createOrg('brief');
    const admin = await createUser('brief', 'boss', { admin: true });
    expect((await invoke(post, { auth: admin, path: path('x', 'brief'), body: body() })).status).toBe(201);
    expect((await invoke(deleteOrg, { auth: ROOT, path: { organization: 'brief' } })).status).toBe(204);
    expect(await listManagementPolicies('brief')).toEqual([]);
  });

  it('refuses a create past the per-owner limit (exactly the limit, not one more)', async () => {
    const owner = await createUser('acme', 'limited', { admin: true });
    const limited = postPolicy.withDeps({
      config: () => ({ ...getConfig(), limits: { ...getConfig().limits, maxManagementPolicies: 1 } }),
    });
    expect((await invoke(limited, { auth: owner, path: path('l1'), body: body() })).status).toBe(201);
    const over = await invoke(limited, { auth: owner, path: path('l2'), body: body() });
    expect(over.status).toBe(403);
    expect(over.body.msg).toBe('Access Denied: you are over the limit of 1 management policies');
    expect(await getManagementPolicy('acme', 'l2')).toBeUndefined();
  });
});

describe('the change feed', () => {
  it('nodes of the org see mgmtpolicy rows; nodes of another org do not', async () => {
    const from = (await maxChangeId()) + 1;
    await create('fresh');
    // The signal dispatcher numbers what is written before a node reads it.
    await sequencePendingChanges();
    const changes = async (auth: Auth, organization: string) => {
      const answer = await invoke(postChanges, {
        auth,
        path: { organization },
        body: { changeId: from, maxRecords: 100 },
      });
      return answer.body.changes.map((c: { resource: string; id: string }) => `${c.resource}:${c.id}`);
    };
    expect(await changes(who.node as Auth, 'acme')).toContain('mgmtpolicy:fresh');
    expect(await changes(who.otherNode as Auth, 'other')).not.toContain('mgmtpolicy:fresh');
  });

  it("IBM's AgentFileVersion change is public: nodes of every org see it; another org's is not", async () => {
    const from = (await maxChangeId()) + 1;
    const lists = { agentSoftwareVersions: ['2.0.0'], agentConfigVersions: [], agentCertVersions: [] };
    expect(
      (await invoke(putVersions, { auth: ROOT, path: { organization: 'IBM' }, body: lists })).status,
    ).toBe(201);
    expect(
      (
        await invoke(putVersions, {
          auth: who.otherAdmin as Auth,
          path: { organization: 'other' },
          body: lists,
        })
      ).status,
    ).toBe(201);
    await sequencePendingChanges();
    const seen = async (auth: Auth, organization: string) => {
      const answer = await invoke(postChanges, {
        auth,
        path: { organization },
        body: { changeId: from, maxRecords: 100 },
      });
      return answer.body.changes
        .filter((c: { resource: string }) => c.resource === 'agentfileversion')
        .map((c: { orgId: string }) => c.orgId);
    };
    expect(await seen(who.node as Auth, 'acme')).toEqual(['IBM']);
    expect((await seen(who.otherNode as Auth, 'other')).sort()).toEqual(['IBM', 'other']);
  });
});
