import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { pollExchange } from '../sync/poll.ts';
import { pushPending } from '../sync/write-through.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
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
    url: '/node/userinput',
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const entry = (url: string, inputs: { name: string; value?: unknown }[], extra = {}) => ({
  serviceOrgid: 'svcorg',
  serviceUrl: url,
  inputs,
  ...extra,
});
const stored = (url: string, inputs: { name: string; value: unknown }[], extra = {}) => ({
  serviceOrgid: 'svcorg',
  serviceUrl: url,
  serviceArch: '',
  serviceVersionRange: '[0.0.0,INFINITY)',
  inputs,
  ...extra,
});

describe('/node/userinput', () => {
  it('answers [] and 404 on writes before registration', async () => {
    expect((await inject('GET')).json()).toEqual([]);
    const res = await inject('POST', [entry('s1', [])]);
    expect(res.statusCode).toBe(404);
    expect(res.json().input).toBe('node');
    expect((await inject('DELETE')).statusCode).toBe(404);
  });

  it('POST replaces the list locally and in the Exchange node (defaults filled in)', async () => {
    await registerNode(agent, fake);
    const res = await inject('POST', [
      entry('s1', [{ name: 'a', value: 1 }]),
      entry('s2', [{ name: 'b', value: ['x'] }], { serviceArch: 'amd64' }),
    ]);
    expect(res.statusCode).toBe(201);
    const expected = [
      stored('s1', [{ name: 'a', value: 1 }]),
      stored('s2', [{ name: 'b', value: ['x'] }], { serviceArch: 'amd64' }),
    ];
    expect(res.json()).toEqual(expected);
    expect((await inject('GET')).json()).toEqual(expected);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual(expected);
    await inject('PUT', [entry('s3', [])]);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([stored('s3', [])]);
  });

  it('PATCH merges by service and input name and answers the patch', async () => {
    await registerNode(agent, fake);
    await inject('POST', [
      entry('s1', [
        { name: 'a', value: 1 },
        { name: 'b', value: 2 },
      ]),
    ]);
    const patch = [
      entry('s1', [
        { name: 'b', value: 20 },
        { name: 'c', value: 3 },
      ]),
      entry('s2', [{ name: 'z', value: true }]),
    ];
    const res = await inject('PATCH', patch);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual([
      stored('s1', [
        { name: 'b', value: 20 },
        { name: 'c', value: 3 },
      ]),
      stored('s2', [{ name: 'z', value: true }]),
    ]);
    const merged = [
      stored('s1', [
        { name: 'a', value: 1 },
        { name: 'b', value: 20 },
        { name: 'c', value: 3 },
      ]),
      stored('s2', [{ name: 'z', value: true }]),
    ];
    expect((await inject('GET')).json()).toEqual(merged);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual(merged);
  });

  it('DELETE empties both copies (204) and logs update_node_userinput', async () => {
    await registerNode(agent, fake);
    await inject('POST', [entry('s1', [{ name: 'a', value: 1 }])]);
    const res = await inject('DELETE');
    expect(res.statusCode).toBe(204);
    expect((await inject('GET')).json()).toEqual([]);
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([]);
    expect((await inject('DELETE')).statusCode).toBe(204);
    const events = (
      await agent.app.inject({ method: 'GET', url: '/eventlog?event_code=update_node_userinput' })
    ).json();
    expect(events.map((e: { message: string }) => e.message)).toEqual([
      expect.stringContaining('New node user input'),
      'Deleted all node user input',
      'No node user input to delete',
    ]);
  });

  it.each([
    [{ not: 'a list' }, 'body'],
    [[{ serviceUrl: 's', inputs: [] }], 'node.userinput[0].serviceOrgid'],
    [[entry('s', [{ name: 'a' }])], 'node.userinput[0].inputs[0].value'],
    [[entry('s', [{ name: '', value: 1 }])], 'node.userinput[0].inputs[0].name'],
    [[entry('s', [], { serviceVersionRange: 'one' })], 'node.userinput[0].serviceVersionRange'],
    [[entry('s', [], { serviceArch: 'arm64' })], 'node.userinput[0].serviceArch'],
  ])('rejects %j with 400 naming %s; nothing changes', async (payload, input) => {
    await registerNode(agent, fake);
    const res = await inject('POST', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe(input);
    expect((await inject('GET')).json()).toEqual([]);
  });

  it('brings changes made in the Exchange into the local copy on the next poll', async () => {
    await registerNode(agent, fake);
    const remote = [stored('s9', [{ name: 'k', value: 'v' }])];
    fake.patchNode(nodeKey, 'userInput', remote);
    await pollExchange(agent.ctx);
    expect((await inject('GET')).json()).toEqual(remote);
  });

  it('keeps a write made while the Exchange is down and pushes it when it is back', async () => {
    await registerNode(agent, fake);
    await fake.stop();
    const res = await inject('POST', [entry('s1', [{ name: 'a', value: 1 }])]);
    expect(res.statusCode).toBe(201);
    expect((await inject('GET')).json()).toEqual([stored('s1', [{ name: 'a', value: 1 }])]);
    await expect(pushPending(agent.ctx, 'userInput')).rejects.toThrow();
    await fake.restart();
    // An Exchange-side copy read before the push must not undo the local write.
    await pollExchange(agent.ctx);
    expect((await inject('GET')).json()).toEqual([stored('s1', [{ name: 'a', value: 1 }])]);
    await pushPending(agent.ctx, 'userInput');
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([stored('s1', [{ name: 'a', value: 1 }])]);
    expect(agent.ctx.store.pendingKinds()).toEqual([]);
  });
});
