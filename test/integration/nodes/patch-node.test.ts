import { beforeAll, describe, expect, it } from 'vitest';
import { handler as patchNode } from '#functions/nodes/patch-node';
import { getNode } from '#tables/node/records';
import { getOrgCounts } from '#tables/org/stats';
import { seedService } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const patch = (auth: Auth, node: string, body: unknown, organization = 'acme') =>
  invoke(patchNode, { auth, path: { organization, node }, body });

let alice: Auth;
let bob: Auth;
let n1: Auth;

beforeAll(async () => {
  await seedService('o', { url: 'any', version: '1.0.0', arch: 'amd64', public: true });
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  n1 = await createNode('acme', 'n1', 'acme/alice');
});

describe('PATCH /v1/orgs/{organization}/nodes/{node}', () => {
  it('sets exactly one attribute and lastUpdated, leaving lastHeartbeat alone', async () => {
    const before = await getNode('acme', 'n1');
    const result = await patch(alice, 'n1', { arch: 'riscv' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: "attribute 'arch' of node 'acme/n1' updated" });
    const after = await getNode('acme', 'n1');
    expect(after?.arch).toBe('riscv');
    expect(after?.lastUpdated).not.toBe(before?.lastUpdated);
    expect(after?.lastHeartbeat).toBe(before?.lastHeartbeat);
  });

  it.each([
    ['heartbeatIntervals', { minInterval: 5 }, { minInterval: 5, maxInterval: 0, intervalAdjustment: 0 }],
    ['softwareVersions', { horizon: '2.31' }, { horizon: '2.31' }],
    ['isNamespaceScoped', true, true],
    ['clusterNamespace', 'ns1', 'ns1'],
    ['nodeType', 'cluster', 'cluster'],
    [
      'registeredServices',
      [{ url: 'o/s', numAgreements: 1, policy: '', properties: [] }],
      [{ url: 'o/s', numAgreements: 1, configState: 'active', policy: '', properties: [] }],
    ],
    [
      'userInput',
      [{ serviceOrgid: 'o', serviceUrl: 'any', inputs: [] }],
      [{ serviceOrgid: 'o', serviceUrl: 'any', inputs: [] }],
    ],
  ])('patches %s', async (attribute, value, stored) => {
    expect((await patch(alice, 'n1', { [attribute]: value })).status).toBe(201);
    expect((await getNode('acme', 'n1'))?.[attribute as 'arch']).toEqual(stored);
  });

  it('patches the token (hashed), after which the node authenticates with it', async () => {
    expect((await patch(alice, 'n1', { token: 'new-token' })).status).toBe(201);
    expect((await patch({ user: 'acme/n1', secret: 'new-token' }, 'n1', { name: 'self' })).status).toBe(201);
    expect((await patch(n1, 'n1', { name: 'old token' })).status).toBe(401);
    n1 = { user: 'acme/n1', secret: 'new-token' };
  });

  it.each([
    ['no attribute', {}],
    ['two attributes', { name: 'a', arch: 'b' }],
    ['only nulls', { name: null }],
  ])('answers 400 bad input for %s', async (_, body) => {
    const result = await patch(alice, 'n1', body);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: 'invalid-input', msg: 'bad input' });
  });

  it('rejects a body that is not an object, unknown fields, an empty token and bad properties', async () => {
    expect((await patch(alice, 'n1', [{ name: 'x' }])).status).toBe(400);
    expect((await patch(alice, 'n1', { colour: 'red' })).body.msg).toContain("'colour'");
    expect((await patch(alice, 'n1', { token: '' })).body.msg).toBe(
      'the token can not be set to the empty string',
    );
    expect((await patch(alice, 'n1', { nodeType: 'phone' })).status).toBe(400);
    const props = [{ name: 'mem', value: '400MB', propType: 'int', op: '=' }];
    const bad = await patch(alice, 'n1', {
      registeredServices: [{ url: 'o/s', policy: '', properties: props }],
    });
    expect(bad.body.msg).toBe('400MB, not a valid 32-bit signed integer value');
  });

  it('refuses a pattern (none exist yet) but accepts an empty one', async () => {
    const result = await patch(alice, 'n1', { pattern: 'acme/p1' });
    expect(result.status).toBe(400);
    expect(result.body.msg).toBe(
      "node 'acme/n1' not inserted or updated: the referenced pattern does not exist in the exchange: acme/p1",
    );
    expect((await patch(alice, 'n1', { pattern: '' })).status).toBe(201);
  });

  it('lets only the node itself or root set the public key, once, and then refuses a token', async () => {
    const denied = await patch(alice, 'n1', { publicKey: 'K1' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'access-denied', msg: 'access denied' });
    const before = await getOrgCounts('acme');
    expect((await patch(n1, 'n1', { publicKey: 'K1' })).status).toBe(201);
    expect((await getOrgCounts('acme')).registeredNodes).toBe(before.registeredNodes + 1);
    const replace = await patch(ROOT, 'n1', { publicKey: 'K2' });
    expect(replace.status).toBe(400);
    expect(replace.body.msg).toContain("A node's public key cannot be replaced");
    const token = await patch(n1, 'n1', { token: 'another' });
    expect(token.status).toBe(400);
    expect(token.body.msg).toBe(
      "node 'acme/n1' not inserted or updated: public key is set for node 'acme/n1', cannot set a token",
    );
    // Clearing the key is always allowed (to the node or root) and unregisters the node.
    expect((await patch(n1, 'n1', { publicKey: '' })).status).toBe(201);
    expect((await getOrgCounts('acme')).registeredNodes).toBe(before.registeredNodes);
  });

  it('denies other users, hub admins and agbots; 404 for a missing node', async () => {
    expect((await patch(bob, 'n1', { name: 'x' })).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await patch(hub, 'n1', { name: 'x' })).status).toBe(403);
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await patch(agbot, 'n1', { name: 'x' })).status).toBe(403);
    const missing = await patch(alice, 'ghost', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe("node 'acme/ghost' not found");
    expect((await patch(ROOT, 'ghost', { name: 'x' }, 'nowhere')).status).toBe(404);
    expect(await getNode('acme', 'ghost')).toBeUndefined();
  });

  it('keeps the registered count exact when the key is set and cleared concurrently', async () => {
    const racer = await createNode('acme', 'racer', 'acme/alice', { token: 'racer-token' });
    const before = await getOrgCounts('acme');
    const bodies = [
      { publicKey: 'A' },
      { publicKey: '' },
      { publicKey: 'B' },
      { publicKey: '' },
      { name: 'n' },
    ];
    await Promise.all(bodies.map((body) => patch(ROOT, 'racer', body)));
    const node = await getNode('acme', racer.user.split('/')[1] as string);
    const registered = node?.publicKey ? 1 : 0;
    expect((await getOrgCounts('acme')).registeredNodes).toBe(before.registeredNodes + registered);
  });
});
