import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putNode } from '#functions/nodes/put-node';
import { getConfig } from '#lib/config';
import { getNode } from '#tables/node/records';
import { getOrgCounts, getUserCounts } from '#tables/org/stats';
import { seedService } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

const at = new Date('2030-01-02T03:04:05.678Z');
const put = putNode.withDeps({ clock: { now: () => at } });
type Auth = { user: string; secret: string };
const path = (node: string, organization = 'acme') => ({ organization, node });
const send = (auth: Auth, node: string, body: unknown, query?: Record<string, string>) =>
  invoke(put, { auth, path: path(node), body, ...(query ? { query } : {}) });

let alice: Auth;
let bob: Auth;
let admin: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'admin', { admin: true });
});

describe('PUT /v1/orgs/{organization}/nodes/{node}: create', () => {
  it('creates a node owned by the caller, counts it and stores the token hashed', async () => {
    const before = await getOrgCounts('acme');
    const result = await send(alice, 'n1', {
      name: 'first',
      token: 'tok-1',
      pattern: '',
      publicKey: '',
      arch: 'amd64',
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'node added or updated' });
    const node = await getNode('acme', 'n1');
    expect(node).toMatchObject({ owner: 'acme/alice', name: 'first', arch: 'amd64', nodeType: 'device' });
    expect(node?.lastHeartbeat).toBe(at.toISOString());
    expect(node?.lastUpdated).toBe(at.toISOString());
    expect(node?.tokenHash).toMatch(/^\$scrypt\$/);
    expect((await getOrgCounts('acme')).nodes).toBe(before.nodes + 1);
    expect((await getUserCounts('acme', 'alice')).nodes).toBe(1);
  });

  it('lets the new node authenticate with its token', async () => {
    const result = await send({ user: 'acme/n1', secret: 'tok-1' }, 'n1', { name: 'renamed by itself' });
    expect(result.status).toBe(201);
    expect((await getNode('acme', 'n1'))?.name).toBe('renamed by itself');
  });

  it('leaves lastHeartbeat unset with noheartbeat=true and rejects a non-boolean noheartbeat', async () => {
    expect((await send(alice, 'quiet', { name: 'q' }, { noheartbeat: 'TRUE' })).status).toBe(201);
    expect((await getNode('acme', 'quiet'))?.lastHeartbeat).toBeUndefined();
    const bad = await send(alice, 'quiet2', { name: 'q' }, { noheartbeat: 'tru' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('noheartbeat');
    expect(await getNode('acme', 'quiet2')).toBeUndefined();
  });

  it('lets root create a node in another org, unlimited, owned by root/root', async () => {
    const result = await send(ROOT, 'rootnode', { name: 'r' });
    expect(result.status).toBe(201);
    expect((await getNode('acme', 'rootnode'))?.owner).toBe('root/root');
  });

  it('answers 404 when root creates a node in an org that does not exist', async () => {
    const result = await invoke(put, { auth: ROOT, path: path('n', 'ghost'), body: { name: 'n' } });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not-found');
    expect(await getNode('ghost', 'n')).toBeUndefined();
  });
});

describe('PUT node: authorization', () => {
  beforeAll(async () => {
    await createNode('acme', 'owned', 'acme/alice');
  });

  it('denies another plain user of the org (WRITE_ALL_NODES) and a user of another org', async () => {
    const denied = await send(bob, 'owned', { name: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain('WRITE_ALL_NODES');
    const stranger = await createUser('other', 'carol');
    expect((await send(stranger, 'owned', { name: 'x' })).status).toBe(403);
    expect((await send(stranger, 'brand-new', { name: 'x' })).status).toBe(403);
  });

  it('denies hub admins and agbots, and checks authorization before the body', async () => {
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await send(hub, 'owned', { name: 'x' })).status).toBe(403);
    expect((await send(hub, 'hub-new', { name: 'x' })).status).toBe(403);
    expect((await send(agbot, 'owned', { name: 'x' })).status).toBe(403);
    expect((await send(bob, 'owned', { bogus: 1 })).status).toBe(403);
  });

  it('lets an org admin replace a node without taking ownership', async () => {
    expect((await send(admin, 'owned', { name: 'by admin' })).status).toBe(201);
    expect(await getNode('acme', 'owned')).toMatchObject({ name: 'by admin', owner: 'acme/alice' });
  });

  it('answers 401 for a wrong password', async () => {
    expect((await send({ ...alice, secret: 'wrong' }, 'owned', { name: 'x' })).status).toBe(401);
  });
});

describe('PUT node: validation (400, nothing written)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['an unknown field', { name: 'v', colour: 'red' }, "'colour'"],
    ['a missing name', { arch: 'x' }, "'name'"],
    ['a wrong type', { name: 'v', isNamespaceScoped: 'yes' }, 'isNamespaceScoped'],
    ['an unknown nested field', { name: 'v', heartbeatIntervals: { minInterval: 1, extra: 2 } }, 'extra'],
    [
      'an invalid nodeType',
      { name: 'v', nodeType: 'phone' },
      "the 'nodeType' attribute must have one of these values",
    ],
    [
      'a pattern without org',
      { name: 'v', token: 't', publicKey: '', pattern: 'pat' },
      'must have the orgid prepended',
    ],
    ['a token alone', { name: 'v', token: 't' }, "public key is set for node 'acme/v', cannot set a token"],
    ['a public key alone', { name: 'v', publicKey: 'k' }, 'cannot set a token'],
    [
      'an empty token',
      { name: 'v', token: '', pattern: '', publicKey: '' },
      'the token can not be set to the empty string',
    ],
    [
      'a pattern that does not exist',
      { name: 'v', token: 't', publicKey: '', pattern: 'acme/pat' },
      'acme/pat',
    ],
    [
      'a body too large to store',
      { name: 'v', softwareVersions: { big: 'x'.repeat(400_000) } },
      'larger than',
    ],
  ];
  it.each(cases)('rejects %s', async (_, body, msg) => {
    const result = await send(alice, 'v', body);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain(msg);
    expect(await getNode('acme', 'v')).toBeUndefined();
  });

  it('rejects the reserved ids iamapikey and iamtoken', async () => {
    const result = await send(alice, 'iamapikey', { name: 'v' });
    expect(result.status).toBe(400);
    expect(result.body.msg).toBe("Node id cannot be 'iamapikey' or 'iamtoken'");
  });

  const service = (properties: unknown[]) => ({
    name: 'v',
    registeredServices: [{ url: 'o/s', policy: '', properties }],
  });
  const props: [string, Record<string, string>, string][] = [
    ['an unknown propType', { propType: 'float', op: '=' }, "invalid propType 'float' specified for p"],
    ['an unknown op', { propType: 'int', op: '<' }, "invalid op '<' specified for p"],
    [
      'a boolean with op in',
      { propType: 'boolean', op: 'in', value: 'true' },
      "only '=' is supported for propType 'boolean'",
    ],
    [
      'a boolean that is not one',
      { propType: 'boolean', op: '=', value: 'yes' },
      "invalid boolean value 'yes'",
    ],
    [
      'a string with op =',
      { propType: 'string', op: '=' },
      "only 'in' is supported for propType 'string' and 'list'",
    ],
    ['an int with op in', { propType: 'int', op: 'in', value: '1' }, "invalid op 'in' specified for p"],
    [
      'an int that is not one',
      { propType: 'int', op: '=', value: '400MB' },
      '400MB, not a valid 32-bit signed integer value',
    ],
    [
      'a version with op >=',
      { propType: 'version', op: '>=', value: '1.0.0' },
      "only '=' or 'in' is supported",
    ],
    [
      'a bad version',
      { propType: 'version', op: 'in', value: '[1.0.0,x)' },
      "invalid version value '[1.0.0,x)'",
    ],
  ];
  it.each(props)('rejects a registeredServices property with %s', async (_, prop, msg) => {
    const result = await send(alice, 'v', service([{ name: 'p', value: 'v', ...prop }]));
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain(msg);
  });

  it('accepts valid properties and any service URL, defaulting configState to active', async () => {
    const properties = [
      { name: 'a', value: '*', propType: 'boolean', op: '=' },
      { name: 'b', value: 'x,y', propType: 'list', op: 'in' },
      { name: 'c', value: '-5', propType: 'int', op: '>=' },
      { name: 'd', value: '[1.0.0,2.0.0)', propType: 'version', op: 'in' },
      { name: 'e', value: '1.2', propType: 'version', op: '=' },
      { name: 'f', value: 'any', propType: 'wildcard', op: '=' },
    ];
    expect((await send(alice, 'props', service(properties))).status).toBe(201);
    const stored = await getNode('acme', 'props');
    expect(stored?.registeredServices).toEqual([
      { url: 'o/s', numAgreements: 0, configState: 'active', policy: '', properties },
    ]);
  });

  it('accepts userInput naming a service the caller may see, and refuses one that does not exist', async () => {
    const userInput = [
      { serviceOrgid: 'IBM', serviceUrl: 'somewhere', inputs: [{ name: 'x', value: { deep: [1, null] } }] },
    ];
    const refused = await send(alice, 'ui', { name: 'ui', userInput });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(
      "node 'acme/ui' not inserted or updated: the following referenced services do not exist in the exchange: IBM/somewhere",
    );
    expect(await getNode('acme', 'ui')).toBeUndefined();
    await seedService('IBM', { url: 'somewhere', version: '1.0.0', arch: 'amd64', public: true });
    expect((await send(alice, 'ui', { name: 'ui', userInput })).status).toBe(201);
    expect((await getNode('acme', 'ui'))?.userInput).toEqual(userInput);
  });
});

describe('PUT node: update', () => {
  it('resets absent fields but keeps token, pattern and publicKey when they are absent', async () => {
    const full = {
      name: 'full',
      token: 'secret-1',
      pattern: '',
      publicKey: '',
      nodeType: 'cluster',
      arch: 'arm64',
      msgEndPoint: 'http://x',
      softwareVersions: { horizon: '2.30' },
      heartbeatIntervals: { minInterval: 10, maxInterval: 60, intervalAdjustment: 5 },
      clusterNamespace: 'ns',
      isNamespaceScoped: true,
    };
    expect((await send(alice, 'full', full)).status).toBe(201);
    const created = await getNode('acme', 'full');
    expect((await send(alice, 'full', { name: 'again' }, { noheartbeat: 'true' })).status).toBe(201);
    const updated = await getNode('acme', 'full');
    expect(updated).toMatchObject({
      name: 'again',
      owner: 'acme/alice',
      nodeType: 'device',
      arch: '',
      msgEndPoint: '',
      softwareVersions: {},
      heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
      clusterNamespace: '',
      isNamespaceScoped: false,
      tokenHash: created?.tokenHash,
      lastHeartbeat: created?.lastHeartbeat,
    });
    expect((updated?.lastUpdated ?? '') > (created?.lastUpdated ?? '')).toBe(true);
  });

  it('lets root send an empty token, meaning no change', async () => {
    const before = await getNode('acme', 'full');
    expect((await send(ROOT, 'full', { name: 'r', token: '', pattern: '', publicKey: '' })).status).toBe(201);
    expect((await getNode('acme', 'full'))?.tokenHash).toBe(before?.tokenHash);
  });

  it('counts a node as registered once it has a public key, and stops users re-sending keys', async () => {
    const before = await getOrgCounts('acme');
    const node = await createNode('acme', 'reg', 'acme/alice', { token: 'reg-tok' });
    const asNode = { user: node.user, secret: 'reg-tok' };
    expect(
      (await send(asNode, 'reg', { name: 'reg', token: 'reg-tok2', pattern: '', publicKey: 'KEY' })).status,
    ).toBe(201);
    const after = await getOrgCounts('acme');
    expect(after.registeredNodes).toBe(before.registeredNodes + 1);
    expect((await getUserCounts('acme', 'alice')).registeredNodes).toBeGreaterThanOrEqual(1);
    const refused = await send(alice, 'reg', { name: 'reg', token: 't', pattern: '', publicKey: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("public key is set for node 'acme/reg', cannot set a token");
    // Without the three fields the owner may still update; the key stays.
    expect((await send(alice, 'reg', { name: 'renamed' })).status).toBe(201);
    expect((await getNode('acme', 'reg'))?.publicKey).toBe('KEY');
    // Root may clear the key: the node is unregistered again.
    expect((await send(ROOT, 'reg', { name: 'reg', token: '', pattern: '', publicKey: '' })).status).toBe(
      201,
    );
    expect((await getOrgCounts('acme')).registeredNodes).toBe(before.registeredNodes);
  });

  it('keeps counts right when the same new node is PUT many times at once', async () => {
    const before = await getOrgCounts('acme');
    const beforeAlice = await getUserCounts('acme', 'alice');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(alice, 'racy', { name: `r${i}` })),
    );
    // Each loser of a race re-reads and retries; only lasting contention ends in 409.
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
    expect((await getOrgCounts('acme')).nodes).toBe(before.nodes + 1);
    expect((await getUserCounts('acme', 'alice')).nodes).toBe(beforeAlice.nodes + 1);
  });
});

describe('PUT node: limits', () => {
  it('refuses a node past the org limit with upstream message, warning near it', async () => {
    await createOrg('small', { maxNodes: 20 });
    const owner = await createUser('small', 'sam');
    for (let i = 0; i < 18; i++) await createNode('small', `pre${i}`, 'small/sam');
    const nineteenth = await invoke(put, { auth: owner, path: path('a', 'small'), body: { name: 'a' } });
    expect(nineteenth.body.msg).toBe('node added or updated');
    // Upstream warns when at most 5% of the limit was left before the new node.
    const twentieth = await invoke(put, { auth: owner, path: path('b', 'small'), body: { name: 'b' } });
    expect(twentieth.status).toBe(201);
    expect(twentieth.body.msg).toBe('The org small has reached 95% of the node limit: 20 nodes.');
    const over = await invoke(put, { auth: owner, path: path('c', 'small'), body: { name: 'c' } });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: Your current total number of nodes, 20, is either equal to or over the org limit of 20 nodes',
    });
    expect(await getNode('small', 'c')).toBeUndefined();
    expect((await getOrgCounts('small')).nodes).toBe(20);
    // Updating an existing node is not limited; root is not limited at all.
    expect((await invoke(put, { auth: owner, path: path('a', 'small'), body: { name: 'a2' } })).status).toBe(
      201,
    );
    expect((await invoke(put, { auth: ROOT, path: path('d', 'small'), body: { name: 'd' } })).status).toBe(
      201,
    );
  });

  it('refuses a node past the per-user limit from the configuration', async () => {
    const config = getConfig();
    const limited = put.withDeps({
      config: () => ({ ...config, limits: { ...config.limits, maxNodes: 1 } }),
    });
    await createOrg('solo');
    const owner = await createUser('solo', 'sue');
    expect(
      (await invoke(limited, { auth: owner, path: path('a', 'solo'), body: { name: 'a' } })).status,
    ).toBe(201);
    const over = await invoke(limited, { auth: owner, path: path('b', 'solo'), body: { name: 'b' } });
    expect(over.status).toBe(403);
    expect(over.body.msg).toBe('Access Denied: you are over the limit of 1 nodes');
    expect((await getUserCounts('solo', 'sue')).nodes).toBe(1);
  });

  it('never lets concurrent creates pass the org limit', async () => {
    await createOrg('tight', { maxNodes: 3 });
    const owner = await createUser('tight', 'tim');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        invoke(put, { auth: owner, path: path(`n${i}`, 'tight'), body: { name: 'n' } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
    expect((await getOrgCounts('tight')).nodes).toBe(3);
  });
});
