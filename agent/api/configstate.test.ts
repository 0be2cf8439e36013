import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import {
  NODE,
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

const put = (payload: unknown) =>
  agent.app.inject({ method: 'PUT', url: '/node/configstate', payload: payload as object });
const get = async () => (await agent.app.inject({ method: 'GET', url: '/node/configstate' })).json();

describe('/node/configstate', () => {
  it('reads unconfigured (no time) before registration, configuring with a time after', async () => {
    expect(await get()).toEqual({ state: 'unconfigured' });
    await registerNode(agent, fake);
    const state = await get();
    expect(state.state).toBe('configuring');
    expect(state.last_update_time).toBeGreaterThan(1_600_000_000);
  });

  it('moves configuring → configured (201, no body) and logs the completion event', async () => {
    await registerNode(agent, fake);
    const res = await put({ state: 'configured' });
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('');
    expect((await get()).state).toBe('configured');
    const events = (
      await agent.app.inject({
        method: 'GET',
        url: '/eventlog?event_code=node_configuration_registration_complete',
      })
    ).json();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      severity: 'info',
      source_type: 'node',
      message: `Complete node configuration/registration for node ${NODE.id}.`,
      event_source: { node_id: NODE.id, node_org: NODE.org, pattern: '', config_state: 'configured' },
    });
  });

  it('accepts the current state as a no-op and refuses going back', async () => {
    await registerNode(agent, fake);
    expect((await put({ state: 'configuring' })).statusCode).toBe(201);
    await put({ state: 'configured' });
    expect((await put({ state: 'configured' })).statusCode).toBe(201);
    const back = await put({ state: 'configuring' });
    expect(back.statusCode).toBe(400);
    expect(back.json()).toEqual({
      error: "Transition from 'configured' to 'configuring' is not supported.",
      input: 'configstate.state',
    });
  });

  it.each([[{ state: 'unconfigured' }], [{ state: 7 }], [{}]])(
    'rejects %j with 400 on configstate.state',
    async (payload) => {
      await registerNode(agent, fake);
      const res = await put(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().input).toBe('configstate.state');
    },
  );

  it('answers 404 when no node is registered', async () => {
    const res = await put({ state: 'configured' });
    expect(res.statusCode).toBe(404);
    expect(res.json().input).toBe('node');
  });

  it('works while the Exchange is unreachable (nothing to ask it for a node without pattern)', async () => {
    await registerNode(agent, fake);
    await fake.stop();
    expect((await put({ state: 'configured' })).statusCode).toBe(201);
  });

  it('configures a node whose pattern exists and refuses one whose pattern is gone, naming it', async () => {
    fake.patterns.add(`${NODE.org}/p1`);
    fake.addNode(NODE.org, NODE.id, NODE.token, { pattern: `${NODE.org}/p1` });
    const node = await registerNode(agent, fake);
    expect(node.pattern).toBe('org1/p1'); // adopted from the Exchange node
    fake.patterns.clear();
    const missing = await put({ state: 'configured' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'pattern org1/p1 not found in the Exchange: the node cannot be configured.',
      input: 'pattern',
    });
    expect((await get()).state).toBe('configuring');
    // The fake's pattern has no services: nothing more to check (whole-system.test.ts checks services).
    fake.patterns.add(`${NODE.org}/p1`);
    expect((await put({ state: 'configured' })).statusCode).toBe(201);
    expect((await get()).state).toBe('configured');
  });
});
