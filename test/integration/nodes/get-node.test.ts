import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getNode } from '#functions/nodes/get-node';
import { handler as putNode } from '#functions/nodes/put-node';
import { dynamoCallCount } from '#tables/client';
import { seedService } from '#test/support/catalog';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const path = (node: string, organization = 'acme') => ({ organization, node });
const read = (auth: Auth, node: string, query?: Record<string, string>, organization = 'acme') =>
  invoke(getNode, { auth, path: path(node, organization), ...(query ? { query } : {}) });

let alice: Auth;
let bob: Auth;
let node: Auth;

beforeAll(async () => {
  await seedService('o', { url: 'svc', version: '1.0.0', arch: 'amd64', public: true });
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  node = await createNode('acme', 'n1', 'acme/alice');
  await createNode('acme', 'n2', 'acme/alice');
  const body = {
    name: 'full',
    token: 'full-token',
    pattern: '',
    publicKey: 'PUBKEY',
    arch: 'arm64',
    registeredServices: [{ url: 'o/svc', numAgreements: 1, policy: '{}', properties: [] }],
    userInput: [{ serviceOrgid: 'o', serviceUrl: 'svc', inputs: [{ name: 'x', value: 5 }] }],
    softwareVersions: { horizon: '2.30.0' },
    heartbeatIntervals: { minInterval: 10, maxInterval: 120, intervalAdjustment: 10 },
  };
  await invoke(putNode, { auth: alice, path: path('full'), body, query: { noheartbeat: 'true' } });
});

describe('GET /v1/orgs/{organization}/nodes/{node}', () => {
  it('returns the node keyed by org/id in upstream shape, token masked', async () => {
    const result = await read(alice, 'full');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.nodes)).toEqual(['acme/full']);
    expect(result.body.lastIndex).toBe(0);
    const view = result.body.nodes['acme/full'];
    expect(view).toEqual({
      token: '***************',
      name: 'full',
      owner: 'acme/alice',
      nodeType: 'device',
      pattern: '',
      registeredServices: [
        { url: 'o/svc', numAgreements: 1, configState: 'active', policy: '{}', properties: [], version: '' },
      ],
      userInput: [
        {
          serviceOrgid: 'o',
          serviceUrl: 'svc',
          serviceArch: null,
          serviceVersionRange: null,
          inputs: [{ name: 'x', value: 5 }],
        },
      ],
      msgEndPoint: '',
      softwareVersions: { horizon: '2.30.0' },
      lastHeartbeat: '',
      publicKey: 'PUBKEY',
      arch: 'arm64',
      heartbeatIntervals: { minInterval: 10, maxInterval: 120, intervalAdjustment: 10 },
      ha_group: null,
      lastUpdated: expect.any(String),
      clusterNamespace: '',
      isNamespaceScoped: false,
    });
    expect(result.text).not.toContain('scrypt');
  });

  it('answers ?attribute= with the raw value, case-insensitively, JSON text for structured ones', async () => {
    const arch = await read(alice, 'full', { attribute: 'ARCH' });
    expect(arch.body).toEqual({ attribute: 'ARCH', value: 'arm64' });
    expect((await read(alice, 'full', { attribute: 'id' })).body.value).toBe('acme/full');
    expect((await read(alice, 'full', { attribute: 'token' })).body.value).toBe('***************');
    expect((await read(alice, 'full', { attribute: 'lastHeartbeat' })).body.value).toBe('');
    expect((await read(alice, 'full', { attribute: 'ha_group' })).body.value).toBe('');
    const intervals = (await read(alice, 'full', { attribute: 'heartbeatIntervals' })).body.value;
    expect(intervals).toBe('{"minInterval":10,"maxInterval":120,"intervalAdjustment":10}');
    const services = JSON.parse((await read(alice, 'full', { attribute: 'registeredServices' })).body.value);
    expect(services).toEqual([
      { url: 'o/svc', numAgreements: 1, configState: 'active', policy: '{}', properties: [] },
    ]);
    // Not an attribute (isNamespaceScoped included): the whole node.
    expect((await read(alice, 'full', { attribute: 'isNamespaceScoped' })).body.nodes).toBeDefined();
    expect((await read(alice, 'full', { attribute: 'bogus' })).body.nodes).toBeDefined();
  });

  it('lets the node itself, org admins, root and agbots of the org read it', async () => {
    const admin = await createUser('acme', 'admin', { admin: true });
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    const mtAgbot = await createAgbot('IBM', 'mtbot', 'IBM/someone');
    for (const who of [node, admin, ROOT, agbot, mtAgbot]) expect((await read(who, 'n1')).status).toBe(200);
  });

  it('denies other users, other nodes, hub admins and other orgs', async () => {
    const denied = await read(bob, 'n1');
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain('does not have authorization: READ_ALL_NODES');
    expect((await read(node, 'n2')).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await read(hub, 'n1')).status).toBe(403);
    const stranger = await createUser('other', 'carol');
    expect((await read(stranger, 'n1')).status).toBe(403);
    const otherBot = await createAgbot('other', 'obot', 'other/carol');
    expect((await read(otherBot, 'n1')).status).toBe(403);
  });

  it('answers 404 for a missing node: the route 404 in the org, the auth 404 from another org', async () => {
    const same = await read(alice, 'missing');
    expect(same.status).toBe(404);
    expect(same.body).toEqual({ code: 'not-found', msg: 'not found' });
    const stranger = await createUser('other', 'dave');
    const cross = await read(stranger, 'missing');
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ code: 'not-found', msg: "resource 'acme/missing' not found" });
    expect((await read(ROOT, 'missing', undefined, 'nowhere')).status).toBe(404);
  });

  it('answers 401 without valid credentials and 400 for an over-long id', async () => {
    expect((await invoke(getNode, { path: path('n1') })).status).toBe(401);
    expect((await read({ ...alice, secret: 'bad' }, 'n1')).status).toBe(401);
    const long = await read(alice, 'x'.repeat(300));
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain("'node'");
  });

  it('costs 1 DynamoDB call when warm (the identity is remembered; one GetItem of the node)', async () => {
    await read(alice, 'n1');
    const before = dynamoCallCount();
    const result = await read(alice, 'n1');
    expect(result.status).toBe(200);
    expect(dynamoCallCount() - before).toBe(1);
  });

  it('costs 1 DynamoDB call when warm for the node itself too', async () => {
    expect((await read(node, 'n1')).status).toBe(200);
    const before = dynamoCallCount();
    expect((await read(node, 'n1')).status).toBe(200);
    expect(dynamoCallCount() - before).toBe(1);
  });
});
