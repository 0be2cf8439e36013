import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  NODE,
  newAgent,
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

const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown) =>
  agent.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** The configstate GET /node shows; `gone` once it answers 404 (an unregistration has completed). */
const nodeState = async () => {
  const res = await inject('GET', '/node');
  return res.statusCode === 404 ? 'gone' : (res.json().configstate.state as string);
};

const eventCodes = async () =>
  ((await inject('GET', '/eventlog/all')).json() as { event_code: string }[]).map((e) => e.event_code);

describe('GET /node', () => {
  it('answers the unregistered shape before any registration', async () => {
    const res = await inject('GET', '/node');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      id: '',
      organization: null,
      pattern: null,
      clusterNamespace: null,
      configstate: { state: 'unconfigured', last_update_time: 0 },
    });
  });
});

describe('POST /node', () => {
  it('verifies the node with the Exchange, stores it configuring and answers 201 without the token', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token, { ha_group: 'group1' });
    const res = await inject('POST', '/node', {
      id: NODE.id,
      organization: NODE.org,
      token: NODE.token,
      name: 'my node',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      id: NODE.id,
      organization: NODE.org,
      pattern: '',
      name: 'my node',
      nodeType: 'device',
      token_valid: true,
      ha_group: 'group1',
      configstate: { state: 'configuring' },
    });
    expect(JSON.stringify(body)).not.toContain(NODE.token);
    expect((await inject('GET', '/node')).json()).toEqual(body);
    // The Exchange learnt the arch and version and got the built-in policy.
    expect(fake.nodes.get(nodeKey)?.arch).toBe('amd64');
    expect(fake.nodes.get(nodeKey)?.softwareVersions).toEqual({ horizon: '0.1.0' });
    expect(fake.policies.get(nodeKey)?.properties).toContainEqual({ name: 'platform.cpu', value: 4 });
    expect(await eventCodes()).toEqual(['start_node_configuration_registration']);
  });

  it('takes the node user input the Exchange already has', async () => {
    const userInput = [
      {
        serviceOrgid: 'o',
        serviceUrl: 's',
        serviceArch: '',
        serviceVersionRange: '[1.0.0,2.0.0)',
        inputs: [{ name: 'a', value: 1 }],
      },
    ];
    fake.addNode(NODE.org, NODE.id, NODE.token, { userInput });
    await registerNode(agent, fake);
    expect((await inject('GET', '/node/userinput')).json()).toEqual(userInput);
  });

  it('answers 409 for a second registration', async () => {
    await registerNode(agent, fake);
    const res = await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'device is already registered', input: 'node' });
  });

  it.each([
    [{ organization: NODE.org, token: 't' }, 'device.id'],
    [{ id: 'n<1>', organization: NODE.org, token: 't' }, 'device.id'],
    [{ id: 'n1', token: 't' }, 'device.organization'],
    [{ id: 'n1', organization: NODE.org }, 'device.token'],
    [{ id: 'n1', organization: NODE.org, token: 7 }, 'device.token'],
    [{ id: 'n1', organization: NODE.org, token: 't', nodeType: 'phone' }, 'device.nodeType'],
    [{ id: 'n1', organization: NODE.org, token: 't', pattern: 'bad;pattern' }, 'device.pattern'],
  ])('rejects bad input %j naming %s, and stores nothing', async (payload, input) => {
    const res = await inject('POST', '/node', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe(input);
    expect((await inject('GET', '/node')).json().configstate.state).toBe('unconfigured');
    expect(await eventCodes()).toEqual([
      'start_node_configuration_registration',
      'error_node_configuration_registration',
    ]);
  });

  it('uses HZN_NODE_ID when the id is empty', async () => {
    await agent.stop();
    agent = await newAgent(fake.url, dir.path, { defaultNodeId: NODE.id });
    expect((await inject('GET', '/node')).json().id).toBe(NODE.id);
    fake.addNode(NODE.org, NODE.id, NODE.token);
    const res = await inject('POST', '/node', { id: '', organization: NODE.org, token: NODE.token });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ id: NODE.id, name: NODE.id });
  });

  it('answers 400 on the token when the Exchange refuses the credentials', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token);
    const res = await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: 'wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe('device.token');
    expect(res.json().error).toContain('org1/node1');
  });

  it('answers 400 on the organization when the org does not exist', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token);
    fake.orgs.delete(NODE.org);
    const res = await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      input: 'device.organization',
      error: 'organization org1 not found in the Exchange',
    });
  });

  it('answers 400 when the node type differs from the Exchange node', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token, { nodeType: 'cluster' });
    const res = await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe('device.nodeType');
  });

  it('answers 400 naming a pattern the Exchange does not have', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token);
    const res = await inject('POST', '/node', {
      id: NODE.id,
      organization: NODE.org,
      token: NODE.token,
      pattern: 'p1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'pattern org1/p1 not found in exchange.', input: 'device.pattern' });
  });

  it('answers 503 when the Exchange is unreachable, and registers once it is back', async () => {
    fake.addNode(NODE.org, NODE.id, NODE.token);
    await fake.stop();
    const res = await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token });
    expect(res.statusCode).toBe(503);
    expect(res.json().input).toBe('exchange');
    await fake.restart();
    expect(
      (await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token })).statusCode,
    ).toBe(201);
  });

  it('answers 400 JSON for a body that is not JSON; another content type is refused first (415)', async () => {
    const post = (contentType: string) =>
      agent.app.inject({
        method: 'POST',
        url: '/node',
        payload: '{oops',
        headers: { 'content-type': contentType },
      });
    const res = await post('application/json');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().input).toBe('body');
    // Was 400 too before the local API accepted only application/json bodies (api/request-guard.ts).
    const text = await post('text/plain');
    expect(text.statusCode).toBe(415);
    expect(text.headers['content-type']).toContain('application/json');
    expect(text.json().input).toBe('content-type');
  });
});

describe('PATCH /node', () => {
  it('stores a token the Exchange accepts while configuring (200)', async () => {
    await registerNode(agent, fake);
    fake.patchNode(nodeKey, 'token', 'new-token');
    const res = await inject('PATCH', '/node', { id: NODE.id, token: 'new-token', organization: NODE.org });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: NODE.id, token_valid: true });
    // The agent now talks to the Exchange with the new token.
    const write = await inject('POST', '/node/userinput', []);
    expect(write.statusCode).toBe(201);
    expect(await eventCodes()).toContain('node_update_complete');
  });

  it('refuses a token the Exchange does not accept and keeps the old one', async () => {
    await registerNode(agent, fake);
    const res = await inject('PATCH', '/node', { id: NODE.id, token: 'nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().input).toBe('device.token');
    expect((await inject('POST', '/node/userinput', [])).statusCode).toBe(201);
  });

  it('answers 404 unregistered, 400 for another id, 400 once configured', async () => {
    expect((await inject('PATCH', '/node', { id: NODE.id, token: 'x' })).statusCode).toBe(404);
    await registerNode(agent, fake);
    const other = await inject('PATCH', '/node', { id: 'other', token: 'x' });
    expect(other.statusCode).toBe(400);
    expect(other.json().input).toBe('device.id');
    expect((await inject('PUT', '/node/configstate', { state: 'configured' })).statusCode).toBe(201);
    const late = await inject('PATCH', '/node', { id: NODE.id, token: NODE.token });
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toBe('The node must be in configuring state in order to PATCH.');
  });
});

describe('DELETE /node', () => {
  it('answers 404 when nothing is registered', async () => {
    const res = await inject('DELETE', '/node');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'The node is not registered.', input: 'node' });
  });

  it('rejects flag values other than "", true and false', async () => {
    await registerNode(agent, fake);
    const res = await inject('DELETE', '/node?removeNode=yes');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'yes is an incorrect value for removeNode',
      input: 'url.removeNode',
    });
    expect((await inject('GET', '/node')).json().configstate.state).toBe('configuring');
  });

  it('blocks by default: clears the registration in the Exchange, removes local state, then GET /node answers 404 until the next registration', async () => {
    await registerNode(agent, fake);
    await inject('POST', '/node/userinput', [
      { serviceOrgid: 'o', serviceUrl: 's', inputs: [{ name: 'a', value: 1 }] },
    ]);
    const res = await inject('DELETE', '/node');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(fake.nodes.get(nodeKey)?.userInput).toEqual([]);
    expect(fake.nodes.has(nodeKey)).toBe(true);
    // 404 once the unregistration has completed (docs/agent.md; `hzn node list` shows the
    // unconfigured shape itself, cli/agent-client.ts).
    const gone = await inject('GET', '/node');
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      error: 'the node is not registered: its unregistration has completed',
      input: 'node',
    });
    expect((await inject('GET', '/node/userinput')).json()).toEqual([]);
    expect((await inject('GET', '/node/configstate')).json()).toEqual({ state: 'unconfigured' });
    // /eventlog shows the current registration only; /eventlog/all keeps the history.
    expect((await inject('GET', '/eventlog')).json()).toEqual([]);
    expect(await eventCodes()).toContain('node_unregistration_complete');
    // A new registration works without a restart.
    expect(
      (await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token })).statusCode,
    ).toBe(201);
    expect((await inject('GET', '/node')).statusCode).toBe(200);
    const current = (await inject('GET', '/eventlog')).json() as { event_code: string }[];
    expect(current.map((e) => e.event_code)).toEqual(['start_node_configuration_registration']);
  });

  it('deletes the Exchange node with removeNode=true and drops history with deepClean=true', async () => {
    await registerNode(agent, fake);
    const res = await inject('DELETE', '/node?removeNode=true&deepClean=true');
    expect(res.statusCode).toBe(204);
    expect(fake.nodes.has(nodeKey)).toBe(false);
    expect((await inject('GET', '/eventlog/all')).json()).toEqual([]);
  });

  it('with block=false answers at once; the state is unconfiguring until GET /node answers 404', async () => {
    await registerNode(agent, fake);
    await fake.stop(); // the Exchange is slow to clear: unregistration retries for a while
    const res = await inject('DELETE', '/node?block=false');
    expect(res.statusCode).toBe(204);
    expect((await inject('GET', '/node')).json().configstate.state).toBe('unconfiguring');
    expect((await inject('DELETE', '/node')).statusCode).toBe(400);
    expect(
      (await inject('POST', '/node', { id: NODE.id, organization: NODE.org, token: NODE.token })).statusCode,
    ).toBe(409);
    await fake.restart();
    await expect.poll(nodeState).toBe('gone');
  });

  it('with block=true answers 503 when the Exchange cannot be cleared, local state removed anyway', async () => {
    await registerNode(agent, fake);
    await fake.stop();
    const res = await inject('DELETE', '/node');
    expect(res.statusCode).toBe(503);
    expect(res.json().input).toBe('exchange');
    expect(await nodeState()).toBe('gone');
    expect(await eventCodes()).toContain('error_node_unregistration');
  });
});
