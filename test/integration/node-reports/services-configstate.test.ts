import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postConfigState } from '#functions/nodes/post-services-configstate';
import { handler as putNode } from '#functions/nodes/put-node';
import { getNode } from '#tables/node/records';
import { createAgbot, createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { changeRows, tableSnapshot } from '#test/support/node-wire';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let now = new Date('2033-03-03T03:03:03.003Z');
const clock = { now: () => now };
const post = postConfigState.withDeps({ clock });
const path = (node: string) => ({ organization: 'acme', node });
const send = (auth: Auth, node: string, body: unknown) => invoke(post, { auth, path: path(node), body });

const registered = [
  { url: 'svcorg/svc.a', numAgreements: 1, policy: '', properties: [], version: '1.0.0' },
  { url: 'svcorg/svc.b', numAgreements: 1, policy: '', properties: [], version: '2.0.0' },
  { url: 'otherorg/svc.a', numAgreements: 1, policy: '', properties: [] },
];

let alice: Auth;
let bob: Auth;
let bot: Auth;
let other: Auth;

/** A node of alice's with the three registered services above, all active. */
async function registeredNode(id: string): Promise<Auth> {
  const node = await createNode('acme', id, 'acme/alice');
  const body = { name: id, registeredServices: registered };
  const result = await invoke(putNode, { auth: alice, path: path(id), body });
  expect(result.status).toBe(201);
  return node;
}

const states = async (id: string) =>
  (((await getNode('acme', id))?.registeredServices ?? []) as { url: string; configState: string }[]).map(
    (s) => `${s.url}=${s.configState}`,
  );

beforeAll(async () => {
  await createOrg('acme');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  other = await createNode('acme', 'other', 'acme/bob');
});

describe('POST /v1/orgs/{organization}/nodes/{node}/services_configstate', () => {
  it('suspends the matching service (201), stamps the node and records a services_configstate change', async () => {
    const node = await registeredNode('cs1');
    now = new Date('2033-04-04T04:04:04.004Z');
    const result = await send(node, 'cs1', { org: 'svcorg', url: 'svc.a', configState: 'suspended' });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: "registeredServices of node 'acme/cs1' updated" });
    expect(await states('cs1')).toEqual([
      'svcorg/svc.a=suspended',
      'svcorg/svc.b=active',
      'otherorg/svc.a=active',
    ]);
    const stored = await getNode('acme', 'cs1');
    expect(stored?.lastUpdated).toBe('2033-04-04T04:04:04.004Z');
    expect(stored?.lastHeartbeat).toBe('2033-04-04T04:04:04.004Z');
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'cs1',
      resource: 'services_configstate',
      operation: 'created',
    });
  });

  it('treats "" as a wildcard for org and url, and matches the version when one is given', async () => {
    await registeredNode('cs2');
    expect((await send(alice, 'cs2', { org: '', url: '', configState: 'suspended' })).status).toBe(201);
    expect(await states('cs2')).toEqual([
      'svcorg/svc.a=suspended',
      'svcorg/svc.b=suspended',
      'otherorg/svc.a=suspended',
    ]);
    expect((await send(alice, 'cs2', { org: 'svcorg', url: '', configState: 'active' })).status).toBe(201);
    expect(await states('cs2')).toEqual([
      'svcorg/svc.a=active',
      'svcorg/svc.b=active',
      'otherorg/svc.a=suspended',
    ]);
    // A version that differs matches the service but changes nothing (still 201).
    const body = { org: 'svcorg', url: 'svc.b', configState: 'suspended', version: '9.9.9' };
    expect((await send(alice, 'cs2', body)).status).toBe(201);
    expect(await states('cs2')).toContain('svcorg/svc.b=active');
    expect((await send(alice, 'cs2', { ...body, version: '2.0.0' })).status).toBe(201);
    expect(await states('cs2')).toContain('svcorg/svc.b=suspended');
  });

  it('writes a change row even when nothing changed, and leaves the node untouched', async () => {
    await registeredNode('cs3');
    const before = await getNode('acme', 'cs3');
    const rows = (await changeRows('acme')).length;
    expect((await send(alice, 'cs3', { org: 'svcorg', url: 'svc.a', configState: 'active' })).status).toBe(
      201,
    );
    expect((await getNode('acme', 'cs3'))?.lastUpdated).toBe(before?.lastUpdated);
    expect(await changeRows('acme')).toHaveLength(rows + 1);
  });

  it.each([
    [
      'a configState that is neither',
      { org: 'a', url: 'b', configState: 'paused' },
      "the configState value must be either 'suspended' or 'active'.",
    ],
    [
      'a url without org',
      { org: '', url: 'svc.a', configState: 'active' },
      'Org attribute not detailed for specific url or version in request body.',
    ],
    [
      'a version without url',
      { org: 'svcorg', url: '', configState: 'active', version: '1' },
      'Version cannot be found if url attribute is not specified.',
    ],
    ['no org', { url: 'svc.a', configState: 'active' }, 'org'],
    ['an unknown property', { org: '', url: '', configState: 'active', extra: 1 }, 'extra'],
  ])('answers 400 for %s and writes nothing', async (_, body, msg) => {
    await registeredNode(`bad-${msg.length}-${Object.keys(body).length}`);
    const before = await tableSnapshot();
    const result = await send(alice, `bad-${msg.length}-${Object.keys(body).length}`, body);
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain(msg);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('answers 404 for no registered services, no match, or no node — writing nothing', async () => {
    await createNode('acme', 'bare', 'acme/alice');
    await registeredNode('cs4');
    const before = await tableSnapshot();
    expect((await send(alice, 'bare', { org: '', url: '', configState: 'active' })).body).toEqual({
      code: 'not-found',
      msg: 'node has no registeredServices to change the configState of.',
    });
    expect((await send(alice, 'cs4', { org: 'nobody', url: '', configState: 'active' })).body).toEqual({
      code: 'not-found',
      msg: 'did not find any registeredServices that matched the given org and url criteria.',
    });
    expect((await send(alice, 'ghost', { org: '', url: '', configState: 'active' })).body).toEqual({
      code: 'not-found',
      msg: "node 'acme/ghost' not found",
    });
    expect(await tableSnapshot()).toEqual(before);
  });

  it('refuses another node, an agbot and another user — writing nothing', async () => {
    await registeredNode('cs5');
    const before = await tableSnapshot();
    for (const who of [other, bot, bob]) {
      const result = await send(who, 'cs5', { org: '', url: '', configState: 'suspended' });
      expect(result.status, who.user).toBe(403);
    }
    expect(await tableSnapshot()).toEqual(before);
  });
});
