import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttp } from '#lib/http-client';
import type { Agent } from './agent.ts';
import { type FakeExchange, startFakeExchange } from './test-support/fake-exchange.ts';
import { NODE, newAgent, nodeKey, registerNode, tempDir } from './test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  fake = await startFakeExchange();
  dir = tempDir();
  agent = await newAgent(fake.url, dir.path, { pollIntervalMs: 100 });
});
afterEach(async () => {
  await agent.stop();
  await fake.close();
  dir.remove();
});

const get = async (url: string) => (await agent.app.inject({ method: 'GET', url })).json();
const write = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
  agent.app.inject({ method, url, payload: payload as object });
const userInput = [{ serviceOrgid: 'o', serviceUrl: 's', inputs: [{ name: 'a', value: 1 }] }];

describe('agent process state', () => {
  it('keeps every piece of state across a restart on the same data dir', async () => {
    await registerNode(agent, fake);
    await write('POST', '/node/userinput', userInput);
    await write('POST', '/node/policy', { properties: [{ name: 'p', value: 'v' }], constraints: ['a == b'] });
    await write('PUT', '/node/configstate', { state: 'configured' });
    const before = await Promise.all(
      ['/node', '/node/configstate', '/node/userinput', '/node/policy', '/eventlog', '/eventlog/all'].map(
        get,
      ),
    );
    await agent.stop();

    agent = await newAgent(fake.url, dir.path);
    const after = await Promise.all(
      ['/node', '/node/configstate', '/node/userinput', '/node/policy', '/eventlog', '/eventlog/all'].map(
        get,
      ),
    );
    expect(after).toEqual(before);
    expect(after[1].state).toBe('configured');
  });

  it('keeps a pending write across a restart and pushes it once the Exchange is back', async () => {
    await registerNode(agent, fake);
    await fake.stop();
    expect((await write('POST', '/node/userinput', userInput)).statusCode).toBe(201);
    await agent.stop();

    agent = await newAgent(fake.url, dir.path, { pollIntervalMs: 100 });
    expect(agent.ctx.store.pendingKinds()).toEqual(['userInput']);
    await agent.start();
    await fake.restart();
    await expect
      .poll(() => fake.nodes.get(nodeKey)?.userInput, { timeout: 30_000 })
      .toEqual([
        {
          serviceOrgid: 'o',
          serviceUrl: 's',
          serviceArch: '',
          serviceVersionRange: '[0.0.0,INFINITY)',
          inputs: [{ name: 'a', value: 1 }],
        },
      ]);
    await expect.poll(() => agent.ctx.store.pendingKinds()).toEqual([]);
  });

  it('finishes an unregistration that a stop interrupted', async () => {
    await registerNode(agent, fake);
    await write('POST', '/node/userinput', userInput);
    await fake.stop();
    await agent.app.inject({ method: 'DELETE', url: '/node?block=false&removeNode=true' });
    // Stopped while still retrying: simulate the crash by putting the record back the way it was left.
    const leaving = agent.ctx.store.get('node');
    await agent.stop();

    agent = await newAgent(fake.url, dir.path);
    agent.ctx.store.set('node', {
      ...(leaving as object),
      configstate: { state: 'unconfiguring', last_update_time: 1 },
    });
    agent.ctx.store.set('node.unregistration', { removeNode: true, deepClean: false });
    await fake.restart();
    await agent.start();
    await expect
      .poll(async () => (await agent.app.inject({ method: 'GET', url: '/node' })).statusCode)
      .toBe(404);
    expect(fake.nodes.has(nodeKey)).toBe(false);
  });
});

describe('workers', () => {
  it('heartbeat, pull Exchange changes, report the outage and the recovery', async () => {
    await registerNode(agent, fake);
    await agent.start();
    await expect.poll(() => fake.nodes.get(nodeKey)?.lastHeartbeat).toBeTruthy();

    fake.patchNode(nodeKey, 'userInput', [
      { serviceOrgid: 'x', serviceUrl: 'y', serviceArch: '', serviceVersionRange: '1.0.0', inputs: [] },
    ]);
    await expect.poll(async () => (await get('/node/userinput'))[0]?.serviceUrl).toBe('y');
    fake.putPolicy(nodeKey, { properties: [{ name: 'from', value: 'exchange' }], constraints: [] });
    await expect
      .poll(async () => (await get('/node/policy')).properties)
      .toContainEqual({ name: 'from', value: 'exchange' });
    // ... and the built-ins the Exchange copy lacked are pushed back to it.
    await expect
      .poll(() => ((fake.policies.get(nodeKey)?.properties ?? []) as { name: string }[]).map((p) => p.name))
      .toContain('platform.hardwareId');

    await fake.stop();
    await expect.poll(async () => (await get('/eventlog?event_code=node_heartbeat_failed')).length).toBe(1);
    expect((await get('/node')).id).toBe(NODE.id); // the local API keeps answering
    await fake.restart();
    await expect
      .poll(async () => (await get('/eventlog?event_code=node_heartbeat_restored')).length, {
        timeout: 30_000,
      })
      .toBe(1);
  });

  it('unregisters on its own when the Exchange no longer accepts the node', async () => {
    await registerNode(agent, fake);
    await agent.start();
    fake.nodes.delete(nodeKey);
    await expect
      .poll(async () => (await agent.app.inject({ method: 'GET', url: '/node' })).statusCode)
      .toBe(404);
    expect((await get('/eventlog/all?event_code=node_unregistration_complete')).length).toBe(1);
  });

  it('serves the API over HTTP on the configured loopback port', async () => {
    const port = await agent.start();
    // node:http, as the agent's own client: fetch refuses some ports a user may choose (issue 8).
    const http = createHttp(2000);
    const res = await http.send('GET', new URL(`http://127.0.0.1:${port}/node`), {}, undefined);
    http.close();
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { configstate: { state: string } }).configstate.state).toBe(
      'unconfigured',
    );
  });
});
