import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import type { FakeExchange } from '../test-support/fake-exchange.ts';
import { startAgentUnderTest, stopAgentUnderTest, type tempDir } from '../test-support/harness.ts';

let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;

beforeEach(async () => {
  ({ fake, dir, agent } = await startAgentUnderTest());
});
afterEach(() => stopAgentUnderTest({ fake, dir, agent }));

describe('GET /status', () => {
  it('reports configuration, the Exchange version read from it, and connectivity', async () => {
    const res = await agent.app.inject({ method: 'GET', url: '/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      configuration: {
        exchange_api: `${fake.url}/`,
        exchange_version: '2.154.0',
        required_minimum_exchange_version: '2.124.0',
        preferred_exchange_version: '2.154.0',
        mms_api: `${fake.url}/css`,
        architecture: 'amd64',
        horizon_version: '0.1.0',
        platform_version: '0.1.0',
      },
      connectivity: { [`${fake.url}/`]: true },
      liveHealth: null,
    });
  });

  it('still answers when the Exchange is unreachable, saying so', async () => {
    await fake.stop();
    const res = await agent.app.inject({ method: 'GET', url: '/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json().connectivity).toEqual({ [`${fake.url}/`]: false });
  });
});

describe('GET /status/workers', () => {
  it('lists the workers and their status log once started, terminated after stop', async () => {
    await agent.start();
    await expect
      .poll(
        async () =>
          (await agent.app.inject({ method: 'GET', url: '/status/workers' })).json().workers.ExchangeChanges
            ?.status,
      )
      .toBe('initialized');
    const body = (await agent.app.inject({ method: 'GET', url: '/status/workers' })).json();
    expect(Object.keys(body.workers).sort()).toEqual([
      'AgentUpgrade',
      'AgreementProtocol',
      'ExchangeChanges',
      'NodeManagement',
      'NodeStatus',
      'PolicySync',
      'ServiceConfigStateSync',
      'UserInputSync',
    ]);
    expect(body.workers.PolicySync).toEqual({
      name: 'PolicySync',
      status: 'initialized',
      subworker_status: {},
    });
    expect(body.worker_status_log).toContainEqual(
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d Worker ExchangeChanges: started\.$/),
    );
    await agent.stop();
    expect(agent.ctx.workers.snapshot().workers.ExchangeChanges?.status).toBe('terminated');
  });
});

describe('errors', () => {
  it('answers 405 with Allow for a known path and another method, 404 for unknown paths, JSON both', async () => {
    const wrong = await agent.app.inject({ method: 'DELETE', url: '/status' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toContain('GET');
    expect(wrong.json().input).toBe('method');
    const unknown = await agent.app.inject({ method: 'GET', url: '/nowhere?x=1' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/json');
    expect(unknown.json()).toEqual({ error: 'Unknown path /nowhere', input: 'path' });
    const options = await agent.app.inject({ method: 'OPTIONS', url: '/node/policy' });
    expect(options.statusCode).toBe(200);
    expect(options.headers.allow).toContain('PATCH');
  });

  it('sends no-cache headers', async () => {
    const res = await agent.app.inject({ method: 'GET', url: '/node' });
    expect(res.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
  });
});
