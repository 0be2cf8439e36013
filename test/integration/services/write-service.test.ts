import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteService } from '#functions/services/delete-service';
import { handler as getService } from '#functions/services/get-service';
import { handler as patchService } from '#functions/services/patch-service';
import { handler as postService } from '#functions/services/post-service';
import { handler as putService } from '#functions/services/put-service';
import { getConfig } from '#lib/config';
import { getService as readService } from '#tables/service/records';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, changeRows, partitionKeys, serviceBody } from './support.ts';

useTestTable();

const at = new Date('2032-01-01T00:00:00.000Z');
const post = postService.withDeps({ clock: { now: () => at } });
const org = 'svcw';
const create = (auth: Auth, body: unknown, organization = org) =>
  invoke(post, { auth, path: { organization }, body });
const put = (auth: Auth, service: string, body: unknown) =>
  invoke(putService, { auth, path: { organization: org, service }, body });
const patch = (auth: Auth, service: string, body: unknown) =>
  invoke(patchService, { auth, path: { organization: org, service }, body });
const read = (auth: Auth, service: string, query?: Record<string, string>) =>
  invoke(getService, { auth, path: { organization: org, service }, ...(query ? { query } : {}) });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg(org);
  alice = await createUser(org, 'alice');
  bob = await createUser(org, 'bob');
  admin = await createUser(org, 'admin', { admin: true });
  node = await createNode(org, 'n1', `${org}/alice`);
});

describe('POST /orgs/{org}/services', () => {
  it('creates the service under its upstream id, owned by the caller, with a change row', async () => {
    const body = serviceBody('https://example.com/svc/create', {
      deployment: '{"services":{"a":{"image":"x"}}}  ',
      deploymentSignature: 'sig',
      matchHardware: { usb: { vendor: '1' } },
      userInput: [{ name: 'x', label: 'X', type: 'int', defaultValue: '1' }],
    });
    const result = await create(alice, body);
    expect(result.status).toBe(201);
    const id = 'example.com-svc-create_1.0.0_amd64';
    expect(result.body).toEqual({ code: 'ok', msg: `service '${org}/${id}' created` });
    const stored = await readService(org, id);
    expect(stored).toMatchObject({ org, id, owner: `${org}/alice`, public: false, description: body.label });
    expect(stored?.deployment).toBe(body.deployment);
    const got = await read(alice, id);
    expect(got.status).toBe(200);
    const view = got.body.services[`${org}/${id}`];
    expect(view).toMatchObject({
      owner: `${org}/alice`,
      organization: org,
      deployment: body.deployment,
      deploymentSignature: 'sig',
      matchHardware: { usb: { vendor: '1' } },
      userInput: body.userInput,
      requiredServices: [],
      lastUpdated: at.toISOString(),
    });
    expect(await changeRows(org)).toContainEqual({
      resource: 'service',
      id,
      operation: 'created',
      public: false,
    });
  });

  it('answers a duplicate with 403 already-exists and writes nothing', async () => {
    const body = serviceBody('dup-svc');
    expect((await create(alice, body)).status).toBe(201);
    const before = (await changeRows(org)).length;
    const again = await create(bob, body);
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('already-exists');
    expect(again.body.msg).toContain(`'${org}/dup-svc_1.0.0_amd64' already exists`);
    expect((await changeRows(org)).length).toBe(before);
    expect((await readService(org, 'dup-svc_1.0.0_amd64'))?.owner).toBe(`${org}/alice`);
  });

  it.each([
    [{ documentation: 'not a url' }, "the 'documentation' field is not valid URL format."],
    [{ version: '1.0.0-beta' }, "version '1.0.0-beta' is not valid version format."],
    [{ arch: '' }, 'arch can not be empty.'],
    [{ sharable: 'foobar' }, "invalid value 'foobar' for the sharable attribute."],
    [
      { requiredServices: [{ url: 'r', org, arch: 'amd64' }] },
      "required service 'r' does not contain a versionRange",
    ],
    [
      { requiredServices: [{ url: 'r', org, version: '1.0.0', arch: 'arm' }] },
      "required service 'r' has arch 'arm', which is different than this service's arch 'amd64'",
    ],
    [{ userInput: [{ name: 'x', type: 'complex' }] }, "body field 'userInput.0.type'"],
    [{ deployment: '{}' }, 'this service definition is not signed.'],
    [{ clusterDeployment: 'x' }, 'this service definition is not signed.'],
    [{ colour: 'red' }, "unknown body field 'colour'"],
    [{ label: 'x'.repeat(100_000) }, "body field 'label'"],
    [{ deployment: 'x'.repeat(100_000), deploymentSignature: 's' }, "body field 'deployment'"],
    [
      { matchHardware: { a: 'b' }, requiredServices: [{ url: 'r', org, version: '1', arch: 'amd64', x: 1 }] },
      "'requiredServices.0.x'",
    ],
  ])('refuses %j with 400 naming the problem and records no change', async (extra, message) => {
    const before = (await changeRows(org)).length;
    const result = await create(alice, serviceBody('bad-svc', extra));
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain(message);
    expect((await changeRows(org)).length).toBe(before);
    expect(await readService(org, 'bad-svc_1.0.0_amd64')).toBeUndefined();
  });

  it('refuses a body nested too deep', async () => {
    let deep: unknown = {};
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const result = await create(alice, serviceBody('deep-svc', { matchHardware: deep }));
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain('nests deeper');
  });

  it('checks required services exist: same org, url and arch, version inside the range', async () => {
    expect((await create(alice, serviceBody('dep-a', { version: '1.5.0' }))).status).toBe(201);
    const requiring = (ref: Record<string, unknown>) =>
      create(
        alice,
        serviceBody('needs-a', { requiredServices: [{ url: 'dep-a', org, arch: 'amd64', ...ref }] }),
      );
    const missing = await requiring({ versionRange: '[2.0.0,3.0.0)' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe(
      `service '${org}/needs-a_1.0.0_amd64' not created: the following required service does not exist in the exchange: org= ${org}, url= dep-a, version= [2.0.0,3.0.0), arch= amd64`,
    );
    expect((await requiring({ versionRange: '' })).status).toBe(400);
    expect((await requiring({ version: '1.0.0' })).status).toBe(201);
    const got = await read(alice, 'needs-a_1.0.0_amd64');
    expect(got.body.services[`${org}/needs-a_1.0.0_amd64`].requiredServices).toEqual([
      { url: 'dep-a', org, version: '1.0.0', versionRange: '1.0.0', arch: 'amd64' },
    ]);
    // Only a range given: no `version` key (upstream's schema has a string there, never null).
    const ranged = await create(
      alice,
      serviceBody('needs-range', {
        requiredServices: [{ url: 'dep-a', org, arch: 'amd64', versionRange: '[1.0.0,2.0.0)' }],
      }),
    );
    expect(ranged.status).toBe(201);
    const listed = (await read(alice, 'needs-range_1.0.0_amd64')).body.services[
      `${org}/needs-range_1.0.0_amd64`
    ];
    expect(listed.requiredServices).toStrictEqual([
      { url: 'dep-a', org, versionRange: '[1.0.0,2.0.0)', arch: 'amd64' },
    ]);
  });

  it('is refused to nodes, and to users of other orgs', async () => {
    expect((await create(node, serviceBody('node-svc'))).status).toBe(403);
    await createOrg('svcw-other');
    const stranger = await createUser('svcw-other', 'carol');
    expect((await create(stranger, serviceBody('stranger-svc'))).status).toBe(403);
  });

  it('enforces the per-owner limit (across orgs) and lets others create', async () => {
    const limited = post.withDeps({
      clock: { now: () => at },
      config: () => ({ ...getConfig(), limits: { ...getConfig().limits, maxServices: 2 } }),
    });
    const dave = await createUser(org, 'dave');
    const attempt = (url: string, who = dave) =>
      invoke(limited, { auth: who, path: { organization: org }, body: serviceBody(url) });
    expect((await attempt('lim-1')).status).toBe(201);
    expect((await attempt('lim-2')).status).toBe(201);
    const third = await attempt('lim-3');
    expect(third.status).toBe(403);
    expect(third.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: you are over the limit of 2 services',
    });
    expect(await readService(org, 'lim-3_1.0.0_amd64')).toBeUndefined();
    // Deleting one frees a place.
    expect(
      (await invoke(deleteService, { auth: dave, path: { organization: org, service: 'lim-1_1.0.0_amd64' } }))
        .status,
    ).toBe(204);
    expect((await attempt('lim-3')).status).toBe(201);
  });
});

describe('PUT /orgs/{org}/services/{service}', () => {
  const id = 'put-svc_1.0.0_amd64';
  beforeAll(async () => {
    expect((await create(alice, serviceBody('put-svc', { public: true }))).status).toBe(201);
  });

  it('replaces every field, records created/modified, and the body must reproduce the id', async () => {
    const changed = await put(
      alice,
      id,
      serviceBody('put-svc', { label: 'new label', sharable: 'singleton' }),
    );
    expect(changed.status).toBe(201);
    expect(changed.body.msg).toBe(`service '${org}/${id}' updated`);
    const stored = await readService(org, id);
    expect(stored).toMatchObject({
      label: 'new label',
      description: 'new label',
      sharable: 'singleton',
      public: false,
    });
    const rows = await changeRows(org);
    expect(rows.at(-1)).toEqual({ resource: 'service', id, operation: 'created/modified', public: false });
    const mismatch = await put(alice, id, serviceBody('put-svc', { arch: 'arm64' }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.msg).toBe(
      'the service id specified in the URL does not match the url, version, and arch in the body.',
    );
  });

  it('is update only, 403 for another plain user, and moves ownership to an admin who writes it', async () => {
    const missing = await put(alice, 'ghost_1.0.0_amd64', serviceBody('ghost'));
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(`service '${org}/ghost_1.0.0_amd64' not found`);
    expect((await put(bob, id, serviceBody('put-svc'))).status).toBe(403);
    expect((await put(admin, id, serviceBody('put-svc'))).status).toBe(201);
    expect((await readService(org, id))?.owner).toBe(`${org}/admin`);
    expect(await partitionKeys(`USER#${org}/admin`)).toContain(`OWNS#SERVICE#${org}/${id}`);
    expect(await partitionKeys(`USER#${org}/alice`)).not.toContain(`OWNS#SERVICE#${org}/${id}`);
  });
});

describe('PATCH /orgs/{org}/services/{service}', () => {
  const id = 'patch-svc_1.0.0_amd64';
  beforeAll(async () => {
    expect((await create(alice, serviceBody('patch-svc'))).status).toBe(201);
  });

  it('applies only the first attribute in upstream order', async () => {
    const result = await patch(alice, id, { sharable: 'exclusive', label: 'patched' });
    expect(result.status).toBe(201);
    expect(result.body.msg).toBe(`attribute 'label' of service '${org}/${id}' updated`);
    const stored = await readService(org, id);
    expect(stored).toMatchObject({ label: 'patched', sharable: 'multiple' });
    expect((await changeRows(org)).at(-1)).toEqual({
      resource: 'service',
      id,
      operation: 'modified',
      public: false,
    });
  });

  it('patches public (the change row carries the new value) and JSON attributes', async () => {
    expect((await patch(alice, id, { public: true })).status).toBe(201);
    expect((await changeRows(org)).at(-1)?.public).toBe(true);
    expect((await patch(alice, id, { imageStore: { storeType: 'dockerRegistry' } })).status).toBe(201);
    const got = await read(alice, id, { attribute: 'imagestore' });
    expect(got.body).toEqual({ attribute: 'imagestore', value: '{"storeType":"dockerRegistry"}' });
  });

  it('refuses url/version/arch, an unpatchable or empty body, bad sharable, missing required services', async () => {
    expect((await patch(alice, id, { arch: 'arm' })).body.msg).toContain(
      "patching attributes 'url', 'version', and 'arch'",
    );
    expect((await patch(alice, id, { clusterDeployment: 'x' })).body.msg).toBe(
      'no valid service attribute specified',
    );
    expect((await patch(alice, id, {})).status).toBe(400);
    expect((await patch(alice, id, { sharable: 'foobar' })).status).toBe(400);
    expect((await patch(alice, id, [1, 2])).status).toBe(400);
    const missing = await patch(alice, id, {
      requiredServices: [{ url: 'nope', org, version: '1', arch: 'amd64' }],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('not updated: the following required service does not exist');
    expect((await patch(bob, id, { label: 'x' })).status).toBe(403);
    expect((await patch(alice, 'ghost_1_amd64', { label: 'x' })).status).toBe(404);
  });

  it('loses no change when patches of different attributes race', async () => {
    const results = await Promise.all([
      patch(alice, id, { description: 'raced description' }),
      patch(alice, id, { documentation: 'https://docs.example.com' }),
      patch(alice, id, { deployment: 'raced deployment' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await readService(org, id)).toMatchObject({
      description: 'raced description',
      documentation: 'https://docs.example.com',
      deployment: 'raced deployment',
    });
  });
});

describe('DELETE /orgs/{org}/services/{service}', () => {
  it('deletes the record, its link and count, records deleted; a second delete is 404', async () => {
    expect((await create(bob, serviceBody('del-svc', { public: true }))).status).toBe(201);
    const id = 'del-svc_1.0.0_amd64';
    const remove = () => invoke(deleteService, { auth: bob, path: { organization: org, service: id } });
    expect((await remove()).status).toBe(204);
    expect(await readService(org, id)).toBeUndefined();
    expect(await partitionKeys(`SERVICE#${org}/${id}`)).toEqual([]);
    expect(await partitionKeys(`USER#${org}/bob`)).not.toContain(`OWNS#SERVICE#${org}/${id}`);
    expect((await changeRows(org)).at(-1)).toEqual({
      resource: 'service',
      id,
      operation: 'deleted',
      public: true,
    });
    const again = await remove();
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe(`service '${org}/${id}' not found`);
  });

  it('is refused to another plain user and to nodes; root may', async () => {
    expect((await create(bob, serviceBody('del-svc2'))).status).toBe(201);
    const path = { organization: org, service: 'del-svc2_1.0.0_amd64' };
    expect((await invoke(deleteService, { auth: alice, path })).status).toBe(403);
    expect((await invoke(deleteService, { auth: node, path })).status).toBe(403);
    expect((await invoke(deleteService, { auth: ROOT, path })).status).toBe(204);
  });
});
