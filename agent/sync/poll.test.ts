import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../agent.ts';
import { type FakeExchange, startFakeExchange } from '../test-support/fake-exchange.ts';
import { NODE, newAgent, nodeKey, registerNode, tempDir } from '../test-support/harness.ts';
import { WORKERS } from '../workers/workers.ts';

/** Issue 24, items 1 and 2: one request per poll in steady state, and upstream's adaptive pace. */
let fake: FakeExchange;
let dir: ReturnType<typeof tempDir>;
let agent: Agent;
const changesRoute = `POST /orgs/${NODE.org}/changes`;
const since = (start: number) => fake.requests.slice(start);

beforeEach(async () => {
  fake = await startFakeExchange();
  dir = tempDir();
});
afterEach(async () => {
  await agent.stop();
  await fake.close();
  dir.remove();
});

async function startIdle(overrides: Parameters<typeof newAgent>[2]) {
  agent = await newAgent(fake.url, dir.path, overrides);
  await registerNode(agent, fake);
  await agent.start();
  // The first round reads everything (start); wait until the poll has settled.
  await expect.poll(() => fake.requests.filter((r) => r === changesRoute).length).toBeGreaterThanOrEqual(2);
}

describe('the Exchange poll', () => {
  it('sends only POST /changes in steady state and reads what the feed names, no /heartbeat', async () => {
    await startIdle({ pollIntervalMs: 100 });
    const start = fake.requests.length;
    // Four polls later: every request made meanwhile is one.
    await expect.poll(() => since(start).filter((r) => r === changesRoute).length).toBeGreaterThanOrEqual(4);
    const idle = since(start);
    expect(new Set(idle)).toEqual(new Set([changesRoute]));
    expect(fake.nodes.get(nodeKey)?.lastHeartbeat).toBeTruthy();

    const before = fake.requests.length;
    fake.putPolicy(nodeKey, { properties: [{ name: 'from', value: 'exchange' }], constraints: [] });
    await expect
      .poll(async () => (await agent.app.inject({ method: 'GET', url: '/node/policy' })).json().properties[0])
      .toEqual({ name: 'from', value: 'exchange' });
    const reads = since(before).filter((r) => r.startsWith('GET '));
    expect(reads).toEqual([`GET /orgs/${NODE.org}/nodes/${NODE.id}/policy`]);
    expect(fake.requests.some((r) => r.endsWith('/heartbeat'))).toBe(false);
  });

  it('reads every document again after an outage', async () => {
    await startIdle({ pollIntervalMs: 100 });
    await fake.stop();
    // Two poll rounds failed against the stopped Exchange: the agent saw the outage.
    const rounds = agent.ctx.workers.roundsOf(WORKERS.changes);
    await expect.poll(() => agent.ctx.workers.roundsOf(WORKERS.changes)).toBeGreaterThanOrEqual(rounds + 2);
    const before = fake.requests.length;
    await fake.restart();
    const full = [
      `GET /orgs/${NODE.org}/nodes/${NODE.id}`,
      `GET /orgs/${NODE.org}/nodes/${NODE.id}/policy`,
      `GET /orgs/${NODE.org}/nodes/${NODE.id}/managementStatus`,
    ];
    await expect.poll(() => full.every((r) => since(before).includes(r))).toBe(true);
  });

  it('grows the interval while idle and drops to the minimum when the feed names the node', async () => {
    await startIdle({
      pollIntervalMs: 100,
      heartbeat: { minInterval: 1, maxInterval: 2, intervalAdjustment: 1 },
    });
    const pollTimes = () => fake.requestTimes.filter((_, i) => fake.requests[i] === changesRoute);
    const gaps = () =>
      pollTimes()
        .slice(1)
        .map((t, i) => Math.round((t - (pollTimes()[i] as number)) / 1000));
    await expect.poll(() => gaps().slice(-2), { timeout: 60_000, interval: 200 }).toEqual([2, 2]);
    fake.patchNode(nodeKey, 'name', 'renamed');
    const polls = pollTimes().length;
    await expect.poll(() => pollTimes().length).toBe(polls + 2);
    expect(gaps().at(-1)).toBe(1);
  });
});
