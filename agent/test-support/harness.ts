import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '#lib/json-logger';
import { type Agent, createAgent } from '../agent.ts';
import type { AgentConfig } from '../ground/config.ts';
import { type FakeExchange, startFakeExchange } from './fake-exchange.ts';

/** Fixed host facts so policy assertions do not depend on the machine running the tests. */
export const HOST = { arch: 'amd64', cpu: 4, memoryMb: 8192, hardwareId: 'hw-test-0001' };

export const NODE = { org: 'org1', id: 'node1', token: 'node1-token' };

export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'agent-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function testConfig(
  exchangeUrl: string,
  dataDir: string,
  overrides: Partial<AgentConfig> = {},
): AgentConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    exchangeUrl,
    cssUrl: `${exchangeUrl}/css`,
    dataDir,
    pollIntervalMs: 60_000,
    signals: true,
    signalledPollMs: 3_600_000,
    retryMinMs: 20,
    retryMaxMs: 100,
    requestTimeoutMs: 2_000,
    defaultNodeId: '',
    logLevel: 'error',
    ...overrides,
  };
}

/** An agent over a data dir, not listening and without workers (tests drive it with inject()). */
export function newAgent(
  exchangeUrl: string,
  dataDir: string,
  overrides: Partial<AgentConfig> = {},
): Promise<Agent> {
  return createAgent({ config: testConfig(exchangeUrl, dataDir, overrides), log: silentLogger, host: HOST });
}

/** Puts NODE into the fake Exchange and registers it with the agent; returns the 201 body. */
export async function registerNode(agent: Agent, fake: FakeExchange, body: Record<string, unknown> = {}) {
  if (!fake.nodes.has(`${NODE.org}/${NODE.id}`)) fake.addNode(NODE.org, NODE.id, NODE.token);
  const res = await agent.app.inject({
    method: 'POST',
    url: '/node',
    payload: { id: NODE.id, organization: NODE.org, token: NODE.token, name: 'first node', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const nodeKey = `${NODE.org}/${NODE.id}`;

/** What a route test runs against: a fake Exchange, a temp data dir and an agent over both. */
export interface AgentUnderTest {
  fake: FakeExchange;
  dir: ReturnType<typeof tempDir>;
  agent: Agent;
}

export async function startAgentUnderTest(): Promise<AgentUnderTest> {
  const fake = await startFakeExchange();
  const dir = tempDir();
  return { fake, dir, agent: await newAgent(fake.url, dir.path) };
}

/** Stops what `startAgentUnderTest` started (the agent a test may have swapped in included). */
export async function stopAgentUnderTest({ agent, fake, dir }: AgentUnderTest): Promise<void> {
  await agent.stop();
  await fake.close();
  dir.remove();
}
