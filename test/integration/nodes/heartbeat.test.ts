import { beforeAll, describe, expect, it } from 'vitest';
import { handler as heartbeat } from '#functions/nodes/post-heartbeat';
import { dynamoCallCount } from '#tables/client';
import { getNode } from '#tables/node/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const at = new Date('2031-05-06T07:08:09.010Z');
const beat = heartbeat.withDeps({ clock: { now: () => at } });
const send = (auth: Auth, node: string, organization = 'acme') =>
  invoke(beat, { auth, path: { organization, node } });

let alice: Auth;
let n1: Auth;

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  n1 = await createNode('acme', 'n1', 'acme/alice');
});

describe('POST /v1/orgs/{organization}/nodes/{node}/heartbeat', () => {
  it('sets lastHeartbeat only, for the node itself in two DynamoDB calls', async () => {
    const before = await getNode('acme', 'n1');
    await send(n1, 'n1');
    const calls = dynamoCallCount();
    const result = await send(n1, 'n1');
    expect(dynamoCallCount() - calls).toBeLessThanOrEqual(2);
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'node updated' });
    const after = await getNode('acme', 'n1');
    expect(after?.lastHeartbeat).toBe(at.toISOString());
    expect(after?.lastUpdated).toBe(before?.lastUpdated);
  });

  it('lets the owner, org admins and root send it; denies other users, hub admins and agbots', async () => {
    const admin = await createUser('acme', 'admin', { admin: true });
    for (const who of [alice, admin, ROOT]) expect((await send(who, 'n1')).status).toBe(201);
    const bob = await createUser('acme', 'bob');
    expect((await send(bob, 'n1')).status).toBe(403);
    const hub = await createUser('root', 'hubby', { hubAdmin: true });
    expect((await send(hub, 'n1')).status).toBe(403);
    const agbot = await createAgbot('acme', 'bot', 'acme/alice');
    expect((await send(agbot, 'n1')).status).toBe(403);
    await createNode('acme', 'n2', 'acme/alice');
    expect((await send(n1, 'n2')).status).toBe(403);
  });

  it('answers 404 for a missing node without creating it', async () => {
    const result = await send(alice, 'ghost');
    expect(result.status).toBe(404);
    expect(result.body.msg).toBe("node 'acme/ghost' not found");
    expect(await getNode('acme', 'ghost')).toBeUndefined();
    expect((await send(ROOT, 'ghost', 'nowhere')).status).toBe(404);
  });
});
