import { beforeAll, describe, expect, it } from 'vitest';
import { handler as listCatalogPatterns } from '#functions/catalog/list-catalog-patterns';
import { handler as patchNode } from '#functions/nodes/patch-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as deleteOrg } from '#functions/orgs/delete-org';
import { handler as deletePattern } from '#functions/patterns/delete-pattern';
import { handler as getPattern } from '#functions/patterns/get-pattern';
import { handler as listPatterns } from '#functions/patterns/list-patterns';
import { handler as patchPattern } from '#functions/patterns/patch-pattern';
import { handler as postPattern } from '#functions/patterns/post-pattern';
import { handler as putPattern } from '#functions/patterns/put-pattern';
import { handler as deleteUser } from '#functions/users/delete-user';
import { getConfig } from '#lib/config';
import { getPattern as readPattern } from '#tables/pattern/records';
import { seedService } from '#test/support/catalog';
import { orgChangeRows } from '#test/support/changes';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const path = (pattern: string, organization = 'pacme') => ({ organization, pattern });
const service = (extra: Record<string, unknown> = {}) => ({
  serviceUrl: 'web',
  serviceOrgid: 'psvc',
  serviceArch: 'amd64',
  serviceVersions: [{ version: '1.0.0' }],
  ...extra,
});
const body = (extra: Record<string, unknown> = {}) => ({
  label: 'web pattern',
  services: [service()],
  userInput: [{ serviceOrgid: 'psvc', serviceUrl: 'web', inputs: [{ name: 'GREETING', value: 'hi' }] }],
  secretBinding: [{ serviceOrgid: 'psvc', serviceUrl: 'web', secrets: [{ token: 'api-token' }] }],
  ...extra,
});
const post = (auth: Auth, name: string, b: unknown, organization = 'pacme') =>
  invoke(postPattern, { auth, path: path(name, organization), body: b });

beforeAll(async () => {
  await createOrg('pacme');
  await createOrg('pother');
  await createOrg('psvc');
  await createOrg('pibm', { orgType: 'IBM' });
  who.admin = await createUser('pacme', 'admin', { admin: true });
  who.bob = await createUser('pacme', 'bob');
  who.carol = await createUser('pacme', 'carol');
  who.hub = await createUser('root', 'phub', { hubAdmin: true });
  who.otherAdmin = await createUser('pother', 'oa', { admin: true });
  who.ibmAdmin = await createUser('pibm', 'ia', { admin: true });
  who.node = await createNode('pacme', 'n1', 'pacme/bob');
  who.otherNode = await createNode('pother', 'n2', 'pother/oa');
  await seedService('psvc', { url: 'web', version: '1.0.0', arch: 'amd64' });
  await seedService('psvc', { url: 'web', version: '2.0.0', arch: 'arm64' });
});

describe('POST and GET /v1/orgs/{org}/patterns/{pattern}', () => {
  it('creates a pattern owned by the caller with upstream defaults and a change row; a duplicate is 403', async () => {
    const created = await post(who.bob as Auth, 'p1', body());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ code: 'ok', msg: "pattern 'pacme/p1' created" });
    const got = await invoke(getPattern, { auth: who.node as Auth, path: path('p1') });
    expect(got.status).toBe(200);
    expect(got.body.lastIndex).toBe(0);
    expect(got.body.patterns['pacme/p1']).toMatchObject({
      owner: 'pacme/bob',
      label: 'web pattern',
      description: 'web pattern',
      public: false,
      agreementProtocols: [{ name: 'Basic' }],
      clusterNamespace: '',
      services: [
        { ...service(), nodeHealth: { missing_heartbeat_interval: 1800, check_agreement_status: 1800 } },
      ],
      secretBinding: [{ serviceOrgid: 'psvc', serviceUrl: 'web', secrets: [{ token: 'api-token' }] }],
    });
    const rows = (await orgChangeRows('pacme')).filter((r) => r.resource === 'pattern' && r.id === 'p1');
    expect(rows.map((r) => r.operation)).toEqual(['created']);
    const again = await post(who.admin as Auth, 'p1', body());
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('already-exists');
  });

  it('refuses bad bodies in upstream order with messages naming the problem, and writes nothing', async () => {
    const before = (await orgChangeRows('pacme')).length;
    const cases: [unknown, number, string][] = [
      [
        { label: 'x', services: [] },
        400,
        'No services were found in the pattern or the services field was left empty',
      ],
      [
        body({ services: [service({ serviceVersions: [] })] }),
        400,
        "no versions specified for service 'psvc', 'web', 'amd64'",
      ],
      [
        body({ services: [service({ serviceVersions: [{ version: '1.0.0-beta' }] })] }),
        400,
        "version '1.0.0-beta' is not valid version format.",
      ],
      [
        body({
          services: [service({ serviceVersions: [{ version: '1.0.0', deployment_overrides: '{}' }] })],
        }),
        400,
        'this pattern definition is not signed.',
      ],
      [
        body({ services: [service({ serviceVersions: [{ version: '3.0.0' }] })] }),
        400,
        "pattern 'pacme/bad' not created: the following referenced service does not exist in the exchange: org= psvc, url= web, version= 3.0.0, arch= amd64",
      ],
      [
        body({ userInput: [{ serviceOrgid: 'psvc', serviceUrl: 'nope', inputs: [] }] }),
        400,
        "pattern 'pacme/bad' not created: the following referenced service does not exist in the exchange: org= psvc, url= nope, version= [0.0.0,INFINITY), arch= ",
      ],
      [body({ public: true }), 400, "pattern 'pacme/bad' not created: only IBM patterns can be made public"],
    ];
    for (const [b, status, msg] of cases) {
      const answer = await post(who.bob as Auth, 'bad', b);
      expect(answer.status, msg).toBe(status);
      expect(answer.body.msg).toBe(msg);
    }
    const unknown = await post(who.bob as Auth, 'bad', body({ colour: 'red' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain('colour');
    const huge = await post(who.bob as Auth, 'bad', body({ label: 'x'.repeat(100_000) }));
    expect(huge.status).toBe(400);
    expect(huge.body.msg).toContain('label');
    expect(await readPattern('pacme', 'bad')).toBeUndefined();
    expect((await orgChangeRows('pacme')).length).toBe(before);
  });

  it('lets only orgs of type IBM publish public patterns', async () => {
    expect((await post(who.ibmAdmin as Auth, 'pub', body({ public: true }), 'pibm')).status).toBe(201);
    // Any org reads a public pattern; a private one of another org is 403 (404 when missing).
    expect(
      (await invoke(getPattern, { auth: who.otherAdmin as Auth, path: path('pub', 'pibm') })).status,
    ).toBe(200);
    expect((await invoke(getPattern, { auth: who.otherAdmin as Auth, path: path('p1') })).status).toBe(403);
    const missing = await invoke(getPattern, { auth: who.otherAdmin as Auth, path: path('nope') });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'not-found', msg: "resource 'pacme/nope' not found" });
    // Another org's admin may not rewrite it (upstream may; docs/compatibility.md).
    expect(
      (await invoke(putPattern, { auth: who.otherAdmin as Auth, path: path('pub', 'pibm'), body: body() }))
        .status,
    ).toBe(403);
  });

  it('answers a missing pattern with the empty map, and single attributes', async () => {
    const missing = await invoke(getPattern, { auth: who.bob as Auth, path: path('nope') });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ patterns: {}, lastIndex: 0 });
    const label = await invoke(getPattern, {
      auth: who.bob as Auth,
      path: path('p1'),
      query: { attribute: 'LABEL' },
    });
    expect(label.body).toEqual({ attribute: 'LABEL', value: 'web pattern' });
    const services = await invoke(getPattern, {
      auth: who.bob as Auth,
      path: path('p1'),
      query: { attribute: 'services' },
    });
    expect(JSON.parse(services.body.value)[0].serviceUrl).toBe('web');
    const bad = await invoke(getPattern, {
      auth: who.bob as Auth,
      path: path('p1'),
      query: { attribute: 'colour' },
    });
    expect(bad.status).toBe(400);
    expect((await invoke(getPattern, { auth: who.hub as Auth, path: path('p1') })).status).toBe(403);
  });
});

describe('GET /v1/orgs/{org}/patterns and the catalog', () => {
  it("shows users their org's patterns, other orgs the public ones, and filters", async () => {
    await post(who.carol as Auth, 'p2', body({ label: 'second' }));
    const mine = await invoke(listPatterns, { auth: who.bob as Auth, path: { organization: 'pacme' } });
    expect(Object.keys(mine.body.patterns).sort()).toEqual(['pacme/p1', 'pacme/p2']);
    const filtered = await invoke(listPatterns, {
      auth: who.bob as Auth,
      path: { organization: 'pacme' },
      query: { owner: 'pacme/%', label: 'sec%' },
    });
    expect(Object.keys(filtered.body.patterns)).toEqual(['pacme/p2']);
    const stranger = await invoke(listPatterns, {
      auth: who.otherAdmin as Auth,
      path: { organization: 'pacme' },
    });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ patterns: {}, lastIndex: 0 });
    const publicOnes = await invoke(listPatterns, {
      auth: who.otherAdmin as Auth,
      path: { organization: 'pibm' },
    });
    expect(Object.keys(publicOnes.body.patterns)).toEqual(['pibm/pub']);
    expect(
      (await invoke(listPatterns, { auth: who.hub as Auth, path: { organization: 'pacme' } })).status,
    ).toBe(403);
  });

  it('catalog: users see their org and public ones; nodes every org; hub admins nothing', async () => {
    const user = await invoke(listCatalogPatterns, { auth: who.otherAdmin as Auth });
    expect(Object.keys(user.body.patterns)).toEqual(['pibm/pub']);
    const node = await invoke(listCatalogPatterns, {
      auth: who.otherNode as Auth,
      query: { organization: 'pacme' },
    });
    expect(Object.keys(node.body.patterns).sort()).toEqual(['pacme/p1', 'pacme/p2']);
    const onlyPublic = await invoke(listCatalogPatterns, { auth: ROOT, query: { public: 'true' } });
    expect(Object.keys(onlyPublic.body.patterns)).toEqual(['pibm/pub']);
    expect((await invoke(listCatalogPatterns, { auth: who.hub as Auth })).status).toBe(403);
  });
});

describe('PUT, PATCH and DELETE', () => {
  it('PUT replaces the pattern and makes the caller its owner; other users 403; missing 404', async () => {
    expect(
      (await invoke(putPattern, { auth: who.carol as Auth, path: path('p1'), body: body() })).status,
    ).toBe(403);
    expect(
      (await invoke(putPattern, { auth: who.admin as Auth, path: path('nope'), body: body() })).status,
    ).toBe(404);
    const put = await invoke(putPattern, {
      auth: who.admin as Auth,
      path: path('p1'),
      body: body({ label: 'renamed' }),
    });
    expect(put.status).toBe(201);
    const stored = await readPattern('pacme', 'p1');
    expect(stored).toMatchObject({ owner: 'pacme/admin', label: 'renamed', description: 'renamed' });
  });

  it('PATCH sets the first attribute present only, and checks services', async () => {
    const patched = await invoke(patchPattern, {
      auth: who.admin as Auth,
      path: path('p1'),
      body: { description: 'new words', label: 'ignored' },
    });
    expect(patched.body).toEqual({
      code: 'ok',
      msg: "attribute 'description' of pattern 'pacme/p1' updated",
    });
    expect(await readPattern('pacme', 'p1')).toMatchObject({ description: 'new words', label: 'renamed' });
    expect((await invoke(patchPattern, { auth: who.admin as Auth, path: path('p1'), body: {} })).status).toBe(
      400,
    );
    const unknownService = await invoke(patchPattern, {
      auth: who.admin as Auth,
      path: path('p1'),
      body: { services: [service({ serviceUrl: 'ghost' })] },
    });
    expect(unknownService.status).toBe(400);
    expect(unknownService.body.msg).toContain("pattern 'pacme/p1' not updated");
    const services = await invoke(patchPattern, {
      auth: who.admin as Auth,
      path: path('p1'),
      body: { services: [service({ serviceArch: 'arm64', serviceVersions: [{ version: '2.0.0' }] })] },
    });
    expect(services.status).toBe(201);
    expect((await readPattern('pacme', 'p1'))?.services).toEqual([
      service({ serviceArch: 'arm64', serviceVersions: [{ version: '2.0.0' }] }),
    ]);
    expect(
      (await invoke(patchPattern, { auth: who.admin as Auth, path: path('p1'), body: { public: true } }))
        .status,
    ).toBe(400);
  });

  it('DELETE removes it with a change row; then 404', async () => {
    await post(who.bob as Auth, 'gone', body());
    expect((await invoke(deletePattern, { auth: who.carol as Auth, path: path('gone') })).status).toBe(403);
    expect((await invoke(deletePattern, { auth: who.bob as Auth, path: path('gone') })).status).toBe(204);
    expect((await invoke(deletePattern, { auth: who.bob as Auth, path: path('gone') })).status).toBe(404);
    const rows = (await orgChangeRows('pacme')).filter((r) => r.id === 'gone');
    expect(rows.map((r) => r.operation)).toEqual(['created', 'deleted']);
  });

  it('holds each owner to limits.maxPatterns, counted exactly; deleting frees a place', async () => {
    const limited = postPattern.withDeps({
      config: () => ({ ...getConfig(), limits: { ...getConfig().limits, maxPatterns: 2 } }),
    });
    const dave = await createUser('pacme', 'dave');
    const attempt = (name: string) => invoke(limited, { auth: dave, path: path(name), body: body() });
    const results = await Promise.all(['l1', 'l2', 'l3', 'l4'].map(attempt));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    expect(results.find((r) => r.status === 403)?.body.msg).toBe(
      'Access Denied: you are over the limit of 2 patterns',
    );
    const made = results.flatMap((r, i) => (r.status === 201 ? [`l${i + 1}`] : []));
    expect((await invoke(deletePattern, { auth: dave, path: path(made[0] as string) })).status).toBe(204);
    expect((await attempt('l5')).status).toBe(201);
  });
});

describe('nodes that name a pattern', () => {
  const nodeBody = (pattern: string) => ({ name: 'n', pattern, token: 'tok-12345', publicKey: '' });

  it('accept an existing pattern of their org or a public one; refuse others', async () => {
    const ok = await invoke(putNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn1' },
      body: nodeBody('pacme/p1'),
    });
    expect(ok.status).toBe(201);
    const publicOne = await invoke(putNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn2' },
      body: nodeBody('pibm/pub'),
    });
    expect(publicOne.status).toBe(201);
    for (const pattern of ['pacme/nope', 'pother/x']) {
      const refused = await invoke(putNode, {
        auth: who.bob as Auth,
        path: { organization: 'pacme', node: 'pn3' },
        body: nodeBody(pattern),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain(`the referenced pattern does not exist in the exchange: ${pattern}`);
    }
    const patched = await invoke(patchNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn2' },
      body: { pattern: 'pacme/p2' },
    });
    expect(patched.status).toBe(201);
    const ghost = await invoke(patchNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn2' },
      body: { pattern: 'pacme/ghost' },
    });
    expect(ghost.status).toBe(400);
  });

  it('check their userInput against the services they may see', async () => {
    const input = (serviceUrl: string, serviceArch?: string) => ({
      name: 'n',
      userInput: [{ serviceOrgid: 'psvc', serviceUrl, serviceArch, inputs: [{ name: 'A', value: 1 }] }],
    });
    // psvc's services are private: root may name them, a pacme user may not.
    const asRoot = await invoke(putNode, {
      auth: ROOT,
      path: { organization: 'pacme', node: 'pn4' },
      body: input('web', 'amd%'),
    });
    expect(asRoot.status).toBe(201);
    const asUser = await invoke(putNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn5' },
      body: input('web'),
    });
    expect(asUser.status).toBe(400);
    expect(asUser.body.msg).toContain(
      'the following referenced services do not exist in the exchange: psvc/web',
    );
    await seedService('pacme', { url: 'local', version: '1.0.0', arch: 'amd64' });
    const own = await invoke(patchNode, {
      auth: who.bob as Auth,
      path: { organization: 'pacme', node: 'pn1' },
      body: {
        userInput: [
          { serviceOrgid: 'pacme', serviceUrl: 'local', serviceVersionRange: '[1.0.0,1.0.0]', inputs: [] },
        ],
      },
    });
    expect(own.status).toBe(201);
  });
});

describe('cascades', () => {
  it('deleting a user deletes the patterns it owns; deleting an org deletes them all', async () => {
    const erin = await createUser('pacme', 'erin');
    expect((await post(erin, 'erins', body())).status).toBe(201);
    expect(
      (
        await invoke(deleteUser, {
          auth: who.admin as Auth,
          path: { organization: 'pacme', username: 'erin' },
        })
      ).status,
    ).toBe(204);
    expect(await readPattern('pacme', 'erins')).toBeUndefined();
    expect((await invoke(deleteOrg, { auth: ROOT, path: { organization: 'pibm' } })).status).toBe(204);
    expect(await readPattern('pibm', 'pub')).toBeUndefined();
    const catalog = await invoke(listCatalogPatterns, { auth: ROOT, query: { public: 'true' } });
    expect(catalog.status).toBe(404);
  });
});
