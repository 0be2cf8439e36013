import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deletePolicy } from '#functions/deployment-policies/delete-policy';
import { handler as getPolicy } from '#functions/deployment-policies/get-policy';
import { handler as listPolicies } from '#functions/deployment-policies/list-policies';
import { handler as patchPolicy } from '#functions/deployment-policies/patch-policy';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { handler as putPolicy } from '#functions/deployment-policies/put-policy';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { getDeploymentPolicy } from '#tables/deployment-policy/records';
import { maxChangeId } from '#tables/feed/changes';
import { seedService } from '#test/support/catalog';
import { orgChangeRows } from '#test/support/changes';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const path = (policy: string, organization = 'acme') => ({ organization, policy });
const body = (extra: Record<string, unknown> = {}) => ({
  label: 'web everywhere',
  service: { name: 'web', org: 'svcorg', arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
  constraints: ['purpose == "demo"'],
  properties: [{ name: 'tier', value: 'gold' }],
  userInput: [{ serviceOrgid: 'svcorg', serviceUrl: 'web', inputs: [{ name: 'GREETING', value: 'hi' }] }],
  secretBinding: [{ serviceOrgid: 'svcorg', serviceUrl: 'web', secrets: [{ token: 'api-token' }] }],
  ...extra,
});

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  await createOrg('svcorg');
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.bob = await createUser('acme', 'bob');
  who.carol = await createUser('acme', 'carol');
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.otherAdmin = await createUser('other', 'oa', { admin: true });
  who.node = await createNode('acme', 'n1', 'acme/bob');
  who.agbot = await createAgbot('acme', 'a1', 'acme/admin');
  who.mt = await createAgbot('IBM', 'mt', 'acme/admin');
  who.otherAgbot = await createAgbot('other', 'a2', 'other/oa');
  await seedService('svcorg', { url: 'web', version: '1.0.0', arch: 'amd64' });
  await seedService('svcorg', { url: 'web', version: '2.0.0', arch: 'arm64' });
});

describe('POST, GET and list /v1/orgs/{org}/business/policies', () => {
  it('creates a policy owned by the caller, with defaults, and a change row; a duplicate is 403', async () => {
    const created = await invoke(postPolicy, { auth: who.bob as Auth, path: path('p1'), body: body() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ code: 'ok', msg: "business policy 'acme/p1' created" });
    const got = await invoke(getPolicy, { auth: who.node as Auth, path: path('p1') });
    expect(got.status).toBe(200);
    const policy = got.body.businessPolicy['acme/p1'];
    expect(policy).toMatchObject({
      owner: 'acme/bob',
      label: 'web everywhere',
      description: 'web everywhere',
      service: {
        name: 'web',
        org: 'svcorg',
        arch: 'amd64',
        serviceVersions: [{ version: '1.0.0' }],
        nodeHealth: { missing_heartbeat_interval: 1800, check_agreement_status: 1800 },
        clusterNamespace: '',
      },
      constraints: ['purpose == "demo"'],
    });
    expect(policy.created).toBe(policy.lastUpdated);
    expect(got.body.lastIndex).toBe(0);
    expect((await orgChangeRows('acme')).map((r) => [r.resource, r.id, r.operation])).toContainEqual([
      'policy',
      'p1',
      'created',
    ]);
    const again = await invoke(postPolicy, { auth: who.admin as Auth, path: path('p1'), body: body() });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('already-exists');
  });

  it('accepts any arch with "*" and a service of another org; lists with filters; 404 with the empty map', async () => {
    const anyArch = body({
      service: { name: 'web', org: 'svcorg', arch: '*', serviceVersions: [{ version: '2.0.0' }] },
    });
    expect(
      (await invoke(postPolicy, { auth: who.admin as Auth, path: path('p2'), body: anyArch })).status,
    ).toBe(201);
    const all = await invoke(listPolicies, { auth: who.agbot as Auth, path: { organization: 'acme' } });
    expect(Object.keys(all.body.businessPolicy).sort()).toEqual(['acme/p1', 'acme/p2']);
    const mine = await invoke(listPolicies, {
      auth: who.bob as Auth,
      path: { organization: 'acme' },
      query: { owner: 'acme/b%' },
    });
    expect(Object.keys(mine.body.businessPolicy)).toEqual(['acme/p1']);
    const none = await invoke(listPolicies, {
      auth: who.bob as Auth,
      path: { organization: 'acme' },
      query: { label: 'nope' },
    });
    expect(none).toMatchObject({ status: 404, body: { businessPolicy: {}, lastIndex: 0 } });
    const missing = await invoke(getPolicy, { auth: who.bob as Auth, path: path('nope') });
    expect(missing).toMatchObject({ status: 404, body: { businessPolicy: {}, lastIndex: 0 } });
    const attribute = await invoke(getPolicy, {
      auth: who.bob as Auth,
      path: path('p1'),
      query: { attribute: 'LABEL' },
    });
    expect(attribute.body).toEqual({ attribute: 'LABEL', value: 'web everywhere' });
  });

  it.each([
    [{ service: undefined }, 'service'],
    [{ service: {} }, 'service.name'],
    [
      { service: { name: 'web', org: 'svcorg', arch: 'amd64', serviceVersions: [] } },
      'no versions specified for service',
    ],
    [
      {
        service: { name: 'web', org: 'svcorg', arch: 'amd64', serviceVersions: [{ version: '1.0.0-beta' }] },
      },
      "version '1.0.0-beta' is not valid version format.",
    ],
    [{ constraints: ['purpose =='] }, 'constraints.0'],
    [{ colour: 'red' }, 'colour'],
    [{ label: 'x'.repeat(100_000) }, 'label'],
    [
      { service: { name: 'web', org: 'svcorg', arch: 'amd64', serviceVersions: [{ version: '9.9.9' }] } },
      'the following referenced service does not exist in the exchange: org= svcorg, url= web, version= 9.9.9, arch= amd64',
    ],
    [
      { userInput: [{ serviceOrgid: 'svcorg', serviceUrl: 'nothing', inputs: [] }] },
      'url= nothing, version= [0.0.0,INFINITY)',
    ],
  ])('refuses %o with a 400 naming %s, writing nothing', async (change, expected) => {
    const before = await maxChangeId();
    const refused = await invoke(postPolicy, {
      auth: who.admin as Auth,
      path: path('bad'),
      body: body(change),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain(expected);
    expect(await getDeploymentPolicy('acme', 'bad')).toBeUndefined();
    expect(await maxChangeId()).toBe(before);
  });
});

describe('PUT, PATCH and DELETE', () => {
  it('PUT replaces everything but created and the owner; a missing policy is 404', async () => {
    const before = (await getDeploymentPolicy('acme', 'p1'))?.created;
    const put = await invoke(putPolicy, {
      auth: who.admin as Auth,
      path: path('p1'),
      body: body({ label: 'renamed', description: 'd' }),
    });
    expect(put.status).toBe(201);
    const stored = await getDeploymentPolicy('acme', 'p1');
    expect(stored).toMatchObject({ label: 'renamed', description: 'd', owner: 'acme/bob', created: before });
    expect(
      (await invoke(putPolicy, { auth: who.admin as Auth, path: path('gone'), body: body() })).status,
    ).toBe(404);
  });

  it('PATCH applies the first attribute in upstream order and checks references', async () => {
    const patched = await invoke(patchPolicy, {
      auth: who.bob as Auth,
      path: path('p1'),
      body: { label: 'ignored', constraints: ['tier == gold'] },
    });
    expect(patched.body.msg).toBe("attribute 'constraints' of business policy 'acme/p1' updated");
    expect((await getDeploymentPolicy('acme', 'p1'))?.constraints).toEqual(['tier == gold']);
    expect((await getDeploymentPolicy('acme', 'p1'))?.label).toBe('renamed');
    const empty = await invoke(patchPolicy, { auth: who.bob as Auth, path: path('p1'), body: {} });
    expect(empty).toMatchObject({
      status: 400,
      body: { msg: 'no valid business policy attribute specified' },
    });
    const unknown = await invoke(patchPolicy, {
      auth: who.bob as Auth,
      path: path('p1'),
      body: {
        service: { name: 'nothing', org: 'svcorg', arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      },
    });
    expect(unknown.status).toBe(400);
  });

  it('lets only the owner, org admins and root write; reads follow the org; other orgs 403 or 404', async () => {
    const label = { label: 'x' };
    expect(
      (await invoke(patchPolicy, { auth: who.carol as Auth, path: path('p1'), body: label })).status,
    ).toBe(403);
    expect(
      (await invoke(patchPolicy, { auth: who.agbot as Auth, path: path('p1'), body: label })).status,
    ).toBe(403);
    expect(
      (await invoke(postPolicy, { auth: who.node as Auth, path: path('pn'), body: body() })).status,
    ).toBe(403);
    expect((await invoke(postPolicy, { auth: who.hub as Auth, path: path('ph'), body: body() })).status).toBe(
      403,
    );
    expect((await invoke(getPolicy, { auth: who.mt as Auth, path: path('p1') })).status).toBe(200);
    expect((await invoke(getPolicy, { auth: who.otherAgbot as Auth, path: path('p1') })).status).toBe(403);
    const missingElsewhere = await invoke(getPolicy, { auth: who.otherAdmin as Auth, path: path('nope') });
    expect(missingElsewhere).toMatchObject({ status: 404, body: { msg: "resource 'acme/nope' not found" } });
    expect(
      (await invoke(listPolicies, { auth: who.otherAdmin as Auth, path: { organization: 'acme' } })).status,
    ).toBe(403);
    expect((await invoke(patchPolicy, { auth: ROOT, path: path('p2'), body: label })).status).toBe(201);
  });

  it('DELETE answers 204 then 404, and records the deletion', async () => {
    expect((await invoke(deletePolicy, { auth: who.bob as Auth, path: path('p1') })).status).toBe(204);
    expect((await invoke(deletePolicy, { auth: who.bob as Auth, path: path('p1') })).status).toBe(404);
    const rows = (await orgChangeRows('acme')).filter((r) => r.resource === 'policy' && r.id === 'p1');
    expect(rows.map((r) => r.operation)).toEqual(['created', 'created/modified', 'modified', 'deleted']);
  });

  it('goes with its org', async () => {
    await createOrg('doomed');
    const admin = await createUser('doomed', 'admin', { admin: true });
    expect((await invoke(postPolicy, { auth: admin, path: path('p', 'doomed'), body: body() })).status).toBe(
      201,
    );
    expect((await invoke(deleteOrg, { auth: ROOT, path: { organization: 'doomed' } })).status).toBe(204);
    expect(await getDeploymentPolicy('doomed', 'p')).toBeUndefined();
  });
});
