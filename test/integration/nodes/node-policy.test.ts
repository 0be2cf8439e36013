import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deletePolicy } from '#functions/nodes/delete-node-policy';
import { handler as getPolicy } from '#functions/nodes/get-node-policy';
import { handler as heartbeat } from '#functions/nodes/post-heartbeat';
import { handler as putPolicy } from '#functions/nodes/put-node-policy';
import { dynamoCallCount } from '#tables/client';
import { getNodePolicy } from '#tables/node/policy-records';
import { getNode } from '#tables/node/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2032-01-01T00:00:00.000Z');
const put = putPolicy.withDeps({ clock: { now: () => at } });
const path = (node: string, organization = 'acme') => ({ organization, node });
const store = (auth: Auth, node: string, body: unknown, query?: Record<string, string>) =>
  invoke(put, { auth, path: path(node), body, ...(query ? { query } : {}) });
const read = (auth: Auth, node: string) => invoke(getPolicy, { auth, path: path(node) });
const remove = (auth: Auth, node: string) => invoke(deletePolicy, { auth, path: path(node) });

let alice: Auth;
let bob: Auth;
let n1: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  n1 = await createNode('acme', 'n1', 'acme/alice');
});

describe('node policy', () => {
  it('stores a policy, stamps the node, and reads it back in upstream shape', async () => {
    const body = {
      label: 'edge',
      properties: [
        { name: 'gpu', value: true, type: 'boolean' },
        { name: 'x', value: 'y' },
      ],
      constraints: ['a == b'],
      deployment: { properties: [{ name: 'd', value: 1, type: 'int' }] },
      nodePolicyVersion: '1.0',
    };
    const result = await store(n1, 'n1', body);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'policy added or updated' });
    const node = await getNode('acme', 'n1');
    expect(node?.lastHeartbeat).toBe(at.toISOString());
    expect(node?.lastUpdated).toBe(at.toISOString());
    const got = await read(alice, 'n1');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      label: 'edge',
      description: 'edge',
      properties: [
        { name: 'gpu', type: 'boolean', value: true },
        { name: 'x', value: 'y' },
      ],
      constraints: ['a == b'],
      deployment: { properties: [{ name: 'd', type: 'int', value: 1 }], constraints: null },
      management: { properties: null, constraints: null },
      nodePolicyVersion: '1.0',
      lastUpdated: at.toISOString(),
    });
  });

  it('replaces the policy; noheartbeat=true leaves lastHeartbeat alone and lastUpdated still moves', async () => {
    const before = await getNode('acme', 'n1');
    expect((await store(alice, 'n1', { description: 'only' }, { noheartbeat: 'true' })).status).toBe(201);
    const node = await getNode('acme', 'n1');
    expect(node?.lastHeartbeat).toBe(before?.lastHeartbeat);
    expect((node?.lastUpdated ?? '') > (before?.lastUpdated ?? '')).toBe(true);
    const got = await read(n1, 'n1');
    expect(got.body).toMatchObject({ label: '', description: 'only', properties: [], constraints: [] });
  });

  it('rejects an unknown property type, an unknown field and a bad noheartbeat', async () => {
    const bad = await store(alice, 'n1', { properties: [{ name: 'p', value: 1, type: 'integer' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe(
      "The properties.type value 'integer' must be 1 of: string, int, float, boolean, list of strings, version",
    );
    const nested = await store(alice, 'n1', {
      management: { properties: [{ name: 'p', value: 1, type: 'x' }] },
    });
    expect(nested.status).toBe(400);
    expect((await store(alice, 'n1', { label: 'l', colour: 'red' })).status).toBe(400);
    expect((await store(alice, 'n1', { label: 'l' }, { noheartbeat: 'tru' })).status).toBe(400);
    expect((await read(alice, 'n1')).body.description).toBe('only');
  });

  it('answers 404 for a missing node, writing nothing (upstream: 500)', async () => {
    const result = await store(alice, 'ghost', { label: 'l' });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    expect(await getNodePolicy('acme', 'ghost')).toBeUndefined();
    expect(await getNode('acme', 'ghost')).toBeUndefined();
  });

  it('applies the node access rules to every verb', async () => {
    expect((await read(bob, 'n1')).status).toBe(403);
    expect((await store(bob, 'n1', { label: 'x' })).status).toBe(403);
    expect((await remove(bob, 'n1')).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await read(hub, 'n1')).status).toBe(403);
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await read(agbot, 'n1')).status).toBe(200);
    expect((await store(agbot, 'n1', { label: 'x' })).status).toBe(403);
    expect((await read(ROOT, 'n1')).status).toBe(200);
    expect((await read({ ...alice, secret: 'no' }, 'n1')).status).toBe(401);
  });

  it("an agbot's read is one DynamoDB call: the node (to authorize) and its policy in one Query, its liveness beside", async () => {
    const agbot = await createAgbot('acme', 'reader', 'acme/alice');
    // The node's liveness item (written by a feed read) sorts between its record and its policy.
    expect((await store(n1, 'n1', { label: 'counted', constraints: ['c == 1'] })).status).toBe(201);
    await invoke(heartbeat, { auth: n1, path: path('n1') });
    const first = await read(agbot, 'n1');
    const before = dynamoCallCount();
    const warm = await read(agbot, 'n1');
    expect(dynamoCallCount() - before).toBe(1);
    expect(warm.body).toEqual(first.body);
    expect(warm.body).toMatchObject({ label: 'counted', constraints: ['c == 1'] });
    expect(await getNodePolicy('acme', 'n1')).toMatchObject({ label: 'counted', constraints: ['c == 1'] });
    // A node that is not there: 404, as before (an agbot of the org may read its nodes).
    expect((await read(agbot, 'ghost')).status).toBe(404);
  });

  it('deletes the policy (stamping the node), then answers 404s', async () => {
    const before = await getNode('acme', 'n1');
    const result = await remove(alice, 'n1');
    expect(result.status).toBe(204);
    expect(await getNodePolicy('acme', 'n1')).toBeUndefined();
    expect((await getNode('acme', 'n1'))?.lastUpdated).not.toBe(before?.lastUpdated);
    const again = await remove(alice, 'n1');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not-found', msg: "policy for node 'acme/n1' not found" });
    const none = await read(alice, 'n1');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: 'not-found', msg: 'not found' });
    expect((await remove(alice, 'ghost')).status).toBe(404);
  });
});
