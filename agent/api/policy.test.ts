import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { pollExchange } from '../sync/poll.ts';
import { pushPending } from '../sync/write-through.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  HOST,
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
  type tempDir,
} from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', payload?: unknown) =>
  agent.app.inject({
    method,
    url: '/node/policy',
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const builtins = (allowPrivileged = false) => [
  { name: 'platform.hardwareId', value: HOST.hardwareId },
  { name: 'platform.cpu', value: HOST.cpu },
  { name: 'platform.arch', value: HOST.arch },
  { name: 'platform.memory', value: HOST.memoryMb },
  { name: 'platform.allowPrivileged', value: allowPrivileged },
];
const emptySection = { properties: [], constraints: [] };

describe('/node/policy', () => {
  it('answers the empty policy before registration and 404 on writes', async () => {
    expect((await inject('GET')).json()).toEqual({
      properties: null,
      constraints: null,
      deployment: { properties: null, constraints: null },
      management: { properties: null, constraints: null },
    });
    expect((await inject('POST', { properties: [] })).statusCode).toBe(404);
    expect((await inject('PATCH', { constraints: [] })).statusCode).toBe(404);
    expect((await inject('DELETE')).statusCode).toBe(404);
  });

  it('starts with the built-ins after registration, in the Exchange too', async () => {
    await registerNode(agent, fake);
    const policy = (await inject('GET')).json();
    expect(policy).toEqual({
      properties: builtins(),
      constraints: [],
      deployment: emptySection,
      management: emptySection,
    });
    expect(fake.policies.get(nodeKey)).toMatchObject({ properties: builtins(), nodePolicyVersion: 'v2' });
  });

  it('POST replaces the policy: own properties first, built-ins measured (never overwritten), 201', async () => {
    await registerNode(agent, fake);
    const res = await inject('POST', {
      label: 'edge box',
      properties: [
        { name: 'purpose', value: 'testing' },
        { name: 'platform.cpu', value: 64 },
        { name: 'platform.allowPrivileged', value: 'true' },
        { name: 'rating', value: 5, type: 'int' },
      ],
      constraints: ['iame2edev == true || purpose in "a", "b"'],
    });
    expect(res.statusCode).toBe(201);
    const expected = {
      label: 'edge box',
      properties: [
        { name: 'purpose', value: 'testing' },
        { name: 'rating', value: 5, type: 'int' },
        ...builtins(true),
      ],
      constraints: ['iame2edev == true || purpose in "a", "b"'],
      deployment: emptySection,
      management: emptySection,
    };
    expect(res.json()).toEqual(expected);
    expect((await inject('GET')).json()).toEqual(expected);
    expect(fake.policies.get(nodeKey)).toMatchObject({
      properties: expected.properties,
      constraints: expected.constraints,
    });
  });

  it('keeps allowPrivileged when a later write leaves it out', async () => {
    await registerNode(agent, fake);
    await inject('POST', { properties: [{ name: 'platform.allowPrivileged', value: true }] });
    const res = await inject('POST', { properties: [{ name: 'x', value: 'y' }] });
    expect(res.json().properties).toContainEqual({ name: 'platform.allowPrivileged', value: true });
  });

  it.each([
    [{ constraints: ['purpose =='] }, 'constraints[0]'],
    [{ constraints: ['a == 1', 'b === 2'] }, 'constraints[1]'],
    [{ properties: [{ name: 'x' }] }, 'properties[0].value'],
    [{ properties: [{ name: '', value: 1 }] }, 'properties[0].name'],
    [{ properties: [{ name: 'n', value: 'x', type: 'int' }] }, 'properties[0].value'],
    [{ properties: [{ name: 'n', value: { a: 1 } }] }, 'properties[0].value'],
    [
      { properties: [{ name: 'platform.allowPrivileged', value: 'maybe' }] },
      'properties.platform.allowPrivileged',
    ],
    [{ deployment: { constraints: ['&& x'] } }, 'deployment.constraints[0]'],
    [{ properties: 'nope' }, 'properties'],
  ])('rejects %j with 400 naming %s; nothing changes', async (payload, input) => {
    await registerNode(agent, fake);
    const before = (await inject('GET')).json();
    const res = await inject('POST', payload);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().input).toBe(input);
    expect((await inject('GET')).json()).toEqual(before);
  });

  it('PATCH merges properties by name and replaces constraints', async () => {
    await registerNode(agent, fake);
    await inject('POST', {
      properties: [
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ],
      constraints: ['x == 1'],
    });
    const res = await inject('PATCH', {
      properties: [
        { name: 'b', value: 20 },
        { name: 'c', value: 3 },
      ],
      constraints: ['y == 2'],
    });
    expect(res.statusCode).toBe(201);
    const expected = [
      { name: 'a', value: 1 },
      { name: 'b', value: 20 },
      { name: 'c', value: 3 },
      ...builtins(),
    ];
    expect((await inject('GET')).json()).toMatchObject({ properties: expected, constraints: ['y == 2'] });
    expect(fake.policies.get(nodeKey)).toMatchObject({ properties: expected, constraints: ['y == 2'] });
    const empty = await inject('PATCH', { something: 'else' });
    expect(empty.statusCode).toBe(400);
  });

  it('DELETE removes both copies (204)', async () => {
    await registerNode(agent, fake);
    const res = await inject('DELETE');
    expect(res.statusCode).toBe(204);
    expect(fake.policies.has(nodeKey)).toBe(false);
    expect((await inject('GET')).json().properties).toBeNull();
    expect((await inject('DELETE')).statusCode).toBe(204);
  });

  it('brings Exchange-side changes back, with the built-ins put back in both copies', async () => {
    await registerNode(agent, fake);
    await pollExchange(agent.ctx); // first poll: nothing new
    fake.putPolicy(nodeKey, {
      properties: [
        { name: 'zone', value: 'north' },
        { name: 'platform.cpu', value: 1 },
      ],
      constraints: ['a == b'],
    });
    await pollExchange(agent.ctx);
    const expected = [{ name: 'zone', value: 'north' }, ...builtins()];
    expect((await inject('GET')).json()).toMatchObject({ properties: expected, constraints: ['a == b'] });
    await pushPending(agent.ctx, 'policy');
    expect(fake.policies.get(nodeKey)).toMatchObject({ properties: expected });
    // Deleted in the Exchange → deleted here.
    fake.policies.delete(nodeKey);
    await pollExchange(agent.ctx);
    expect((await inject('GET')).json().properties).toBeNull();
  });

  it('keeps a write made while the Exchange is down and pushes it afterwards', async () => {
    await registerNode(agent, fake);
    await fake.stop();
    expect((await inject('POST', { properties: [{ name: 'offline', value: true }] })).statusCode).toBe(201);
    expect(agent.ctx.store.pendingKinds()).toEqual(['policy']);
    await fake.restart();
    await pushPending(agent.ctx, 'policy');
    expect(fake.policies.get(nodeKey)?.properties).toContainEqual({ name: 'offline', value: true });
  });
});
