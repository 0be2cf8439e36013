import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteDockAuth } from '#functions/services/delete-dockauth';
import { handler as deleteDockAuths } from '#functions/services/delete-dockauths';
import { handler as deleteService } from '#functions/services/delete-service';
import { handler as deleteKey } from '#functions/services/delete-service-key';
import { handler as deleteKeys } from '#functions/services/delete-service-keys';
import { handler as deletePolicy } from '#functions/services/delete-service-policy';
import { handler as getDockAuth } from '#functions/services/get-dockauth';
import { handler as getKey } from '#functions/services/get-service-key';
import { handler as getPolicy } from '#functions/services/get-service-policy';
import { handler as listDockAuths } from '#functions/services/list-dockauths';
import { handler as listKeys } from '#functions/services/list-service-keys';
import { handler as postDockAuth } from '#functions/services/post-dockauth';
import { handler as postService } from '#functions/services/post-service';
import { handler as putDockAuth } from '#functions/services/put-dockauth';
import { handler as putKey } from '#functions/services/put-service-key';
import { handler as putPolicy } from '#functions/services/put-service-policy';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { type Auth, changeRows, partitionKeys, serviceBody } from './support.ts';

useTestTable();

const org = 'svcs';
let alice: Auth;
let bob: Auth;
let node: Auth;
let stranger: Auth;

const service = (name: string) => `${name}_1.0.0_amd64`;
const at = (name: string, extra: Record<string, string> = {}) => ({
  organization: org,
  service: service(name),
  ...extra,
});

async function publish(name: string, extra: Record<string, unknown> = {}) {
  const result = await invoke(postService, {
    auth: alice,
    path: { organization: org },
    body: serviceBody(name, extra),
  });
  expect(result.status).toBe(201);
}

beforeAll(async () => {
  await Promise.all([createOrg(org), createOrg('svcs-other')]);
  alice = await createUser(org, 'alice');
  bob = await createUser(org, 'bob');
  node = await createNode(org, 'n1', `${org}/alice`);
  stranger = await createUser('svcs-other', 'eve');
});

describe('service policy', () => {
  beforeAll(() => publish('pol'));
  const policy = {
    label: 'gpu',
    properties: [{ name: 'gpu', value: true, type: 'boolean' }],
    constraints: ['memory >= 512 && os == linux'],
  };

  it('stores, reads back (nodes and other users of the org too), and deletes with change rows', async () => {
    const put = await invoke(putPolicy, { auth: alice, path: at('pol'), body: policy });
    expect(put.status).toBe(201);
    expect(put.body.msg).toBe('policy added or updated');
    for (const who of [alice, bob, node]) {
      const got = await invoke(getPolicy, { auth: who, path: at('pol') });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ ...policy, description: 'gpu' });
    }
    expect((await invoke(putPolicy, { auth: bob, path: at('pol'), body: policy })).status).toBe(403);
    expect((await invoke(deletePolicy, { auth: alice, path: at('pol') })).status).toBe(204);
    expect((await invoke(getPolicy, { auth: alice, path: at('pol') })).status).toBe(404);
    const again = await invoke(deletePolicy, { auth: alice, path: at('pol') });
    expect(again.body.msg).toBe(`policy for service '${org}/${service('pol')}' not found`);
    const rows = (await changeRows(org)).filter((r) => r.resource === 'servicepolicies');
    expect(rows.map((r) => r.operation)).toEqual(['created/modified', 'deleted']);
  });

  it('refuses constraints that do not parse, naming the expression, and writes nothing', async () => {
    const before = (await changeRows(org)).length;
    const bad = await invoke(putPolicy, {
      auth: alice,
      path: at('pol'),
      body: { constraints: ['ok == 1', 'a == (b'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("body field 'constraints.1': 'a == (b' is not a valid constraint");
    const badType = await invoke(putPolicy, {
      auth: alice,
      path: at('pol'),
      body: { properties: [{ name: 'x', value: 1, type: 'complex' }] },
    });
    expect(badType.body.msg).toContain("The properties.type value 'complex' must be 1 of");
    expect((await changeRows(org)).length).toBe(before);
  });

  it('answers 404 for a missing service', async () => {
    const put = await invoke(putPolicy, { auth: alice, path: at('ghost'), body: policy });
    expect(put.status).toBe(404);
    expect(put.body.msg).toBe(`service '${org}/${service('ghost')}' not found`);
  });
});

describe('service keys', () => {
  beforeAll(() => publish('keys'));
  const path = (keyid: string) => at('keys', { keyid });

  it('stores the raw text, lists ids, reads it as text/plain, deletes one and all', async () => {
    const pem = '-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----\n';
    const put = await invoke(putKey, {
      auth: alice,
      path: path('k1.pem'),
      body: pem,
      headers: { 'content-type': 'text/plain' },
    });
    expect(put.status).toBe(201);
    expect((await invoke(putKey, { auth: alice, path: path('k2.pem'), body: 'second' })).status).toBe(201);
    const got = await invoke(getKey, { auth: node, path: path('k1.pem') });
    expect(got.status).toBe(200);
    expect(got.headers['Content-Type']).toMatch(/^text\/plain/);
    expect(got.text).toBe(pem);
    expect((await invoke(listKeys, { auth: bob, path: at('keys') })).body).toEqual(['k1.pem', 'k2.pem']);
    expect((await invoke(deleteKey, { auth: alice, path: path('k1.pem') })).status).toBe(204);
    const second = await invoke(deleteKey, { auth: alice, path: path('k1.pem') });
    expect(second.status).toBe(404);
    expect(second.body.msg).toBe(`key 'k1.pem' for service '${org}/${service('keys')}' not found`);
    expect((await invoke(deleteKeys, { auth: alice, path: at('keys') })).status).toBe(204);
    const none = await invoke(listKeys, { auth: alice, path: at('keys') });
    expect(none.status).toBe(404);
    expect(none.body).toEqual([]);
    expect((await invoke(deleteKeys, { auth: alice, path: at('keys') })).status).toBe(404);
    const rows = (await changeRows(org)).filter((r) => r.resource === 'servicekeys');
    expect(rows.map((r) => r.operation)).toEqual([
      'created/modified',
      'created/modified',
      'deleted',
      'deleted',
    ]);
  });

  it('refuses an empty or oversized key and other orgs', async () => {
    expect((await invoke(putKey, { auth: alice, path: path('e'), body: '' })).status).toBe(400);
    expect((await invoke(putKey, { auth: alice, path: path('big'), body: 'x'.repeat(100_000) })).status).toBe(
      400,
    );
    expect((await invoke(getKey, { auth: stranger, path: path('k2.pem') })).status).toBe(403);
  });
});

describe('service dockauths', () => {
  beforeAll(() => publish('dock', { public: true }));
  const body = { registry: 'registry.example.com', token: 'secret-token' };

  it('adds with increasing ids, masks tokens, merges identical ones, replaces and deletes', async () => {
    const first = await invoke(postDockAuth, { auth: alice, path: at('dock'), body });
    expect(first.body).toEqual({ code: 'ok', msg: 'dockauth 1 added' });
    const second = await invoke(postDockAuth, {
      auth: alice,
      path: at('dock'),
      body: { ...body, username: 'me' },
    });
    expect(second.body.msg).toBe('dockauth 2 added');
    const same = await invoke(postDockAuth, { auth: alice, path: at('dock'), body });
    expect(same.body.msg).toBe('dockauth resource updated');
    const listed = await invoke(listDockAuths, { auth: stranger, path: at('dock') });
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { dockAuthId: number }) => a.dockAuthId)).toEqual([1, 2]);
    expect(listed.body[0]).toMatchObject({
      registry: body.registry,
      username: 'token',
      token: '***************',
    });
    expect(listed.text).not.toContain('secret-token');
    const one = await invoke(getDockAuth, { auth: alice, path: at('dock', { dockauthid: '2' }) });
    expect(one.body).toMatchObject({ dockAuthId: 2, username: 'me', token: '***************' });
    const replaced = await invoke(putDockAuth, {
      auth: alice,
      path: at('dock', { dockauthid: '2' }),
      body: { registry: 'other', token: 't2' },
    });
    expect(replaced.status).toBe(201);
    expect(
      (await invoke(putDockAuth, { auth: alice, path: at('dock', { dockauthid: '9' }), body })).status,
    ).toBe(404);
    expect((await invoke(getDockAuth, { auth: alice, path: at('dock', { dockauthid: 'x' }) })).status).toBe(
      400,
    );
    expect(
      (await invoke(deleteDockAuth, { auth: alice, path: at('dock', { dockauthid: '1' }) })).status,
    ).toBe(204);
    expect(
      (await invoke(deleteDockAuth, { auth: alice, path: at('dock', { dockauthid: '1' }) })).status,
    ).toBe(404);
    expect((await invoke(deleteDockAuths, { auth: alice, path: at('dock') })).status).toBe(204);
    expect((await invoke(listDockAuths, { auth: alice, path: at('dock') })).status).toBe(404);
    const rows = (await changeRows(org)).filter((r) => r.resource === 'servicedockauths');
    expect(rows.every((r) => r.public)).toBe(true);
    expect(rows.map((r) => r.operation)).toEqual([
      'created',
      'created',
      'created/modified',
      'created/modified',
      'deleted',
      'deleted',
    ]);
    expect((await invoke(postDockAuth, { auth: bob, path: at('dock'), body })).status).toBe(403);
  });
});

describe('bad input on sub-resources', () => {
  beforeAll(() => publish('bad'));

  it.each([
    [
      'dockauth token of 100 KB',
      postDockAuth,
      {},
      { registry: 'r', token: 'x'.repeat(100_000) },
      "body field 'token'",
    ],
    [
      'dockauth unknown field',
      postDockAuth,
      {},
      { registry: 'r', token: 't', password: 'p' },
      "unknown body field 'password'",
    ],
    [
      'policy nested too deep',
      putPolicy,
      {},
      { properties: [{ name: 'x', value: deep(40) }] },
      'nests deeper',
    ],
    ['policy label of 100 KB', putPolicy, {}, { label: 'x'.repeat(100_000) }, "body field 'label'"],
    [
      'dockauth PUT unknown field',
      putDockAuth,
      { dockauthid: '1' },
      { registry: 'r', token: 't', x: 1 },
      "unknown body field 'x'",
    ],
  ])('%s → 400 naming it, nothing written', async (_, handler, extra, body, message) => {
    const before = await changeRows(org);
    const result = await invoke(handler, { auth: alice, path: at('bad', extra), body });
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain(message);
    expect(await changeRows(org)).toEqual(before);
    expect(await partitionKeys(`SERVICE#${org}/${service('bad')}`)).toEqual(['SERVICE']);
  });
});

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('deleting a service', () => {
  it('deletes its policy, keys and dockauths: nothing of it stays readable', async () => {
    await publish('gone');
    expect((await invoke(putPolicy, { auth: alice, path: at('gone'), body: { label: 'x' } })).status).toBe(
      201,
    );
    expect(
      (await invoke(putKey, { auth: alice, path: at('gone', { keyid: 'k' }), body: 'key' })).status,
    ).toBe(201);
    const dock = await invoke(postDockAuth, {
      auth: alice,
      path: at('gone'),
      body: { registry: 'r', token: 't' },
    });
    expect(dock.status).toBe(201);
    expect((await invoke(deleteService, { auth: alice, path: at('gone') })).status).toBe(204);
    expect(await partitionKeys(`SERVICE#${org}/${service('gone')}`)).toEqual([]);
    expect((await invoke(getPolicy, { auth: alice, path: at('gone') })).status).toBe(404);
    expect((await invoke(getKey, { auth: alice, path: at('gone', { keyid: 'k' }) })).status).toBe(404);
    expect((await invoke(listDockAuths, { auth: alice, path: at('gone') })).status).toBe(404);
  });
});
