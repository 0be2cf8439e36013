import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_MS } from '#test/support/deadlines';
import { type Credentials, type Http, httpClient } from '#test/support/http';
import { freePorts, type Launched, launch } from '#test/support/launcher';
import { HOST } from '../../../agent/test-support/harness.ts';
import { freePort } from '../../../scripts/local/ports.ts';

/**
 * The whole system for an end-to-end test: `npm start` (DynamoDB Local, or the run's with
 * `useTheRunsDynamoDb()` in `launchEnv`; the Exchange, its agbot) and one built `dist/agent.mjs`,
 * each stopped by its own pid in `stop()`.
 */
export interface System {
  exchange: Http;
  agent: Http;
  exchangeUrl: string;
  root: Credentials;
  startAgent(): Promise<void>;
  stopAgent(): Promise<void>;
  /** Another `dist/agent.mjs` (its own data directory and port), for tests of several nodes. */
  startNodeAgent(name: string): Promise<NodeAgent>;
  /**
   * Runs the in-stack agbot's round now, as its schedule (every minute) would: a test that waits
   * on what only a scheduled round does (node health, timeouts) drives the schedule instead.
   */
  agbotRound(): Promise<void>;
  stop(): Promise<void>;
}

export interface NodeAgent {
  http: Http;
  stop(): Promise<void>;
}

/**
 * `launchEnv`: more environment for `npm start`; e2e tests pass `prebuiltFunctions()` (the run's
 * build), a benchmark nothing (npm start builds the functions, as for a user).
 */
export async function startSystem(
  name: string,
  rootPassword: string,
  launchEnv: Record<string, string> = {},
): Promise<System> {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const ports = await freePorts();
  const agentPort = await freePort();
  const launched: Launched = launch({
    ...launchEnv,
    EXCHANGE_DATA_DIR: join(dataDir, 'stack'),
    EXCHANGE_PORT: String(ports.http),
    EXCHANGE_DYNAMODB_PORT: String(ports.dynamo),
    EXCHANGE_ROOT_PW: rootPassword,
    HZN_AGBOT_POLL_SECONDS: '1',
    HZN_AGBOT_PORT: String(await freePort()),
  });
  await launched.waitFor(/Press Ctrl-C to stop/, 240_000);
  const exchangeUrl = `http://127.0.0.1:${ports.http}/v1`;
  const agent = httpClient(`http://127.0.0.1:${agentPort}`);
  const spawnAgent = async (dir: string, port: number): Promise<NodeAgent> => {
    const child: ChildProcess = spawn(process.execPath, ['dist/agent.mjs'], {
      env: {
        PATH: process.env.PATH,
        DOCKER_HOST: process.env.DOCKER_HOST,
        HZN_AGENT_PORT: String(port),
        HZN_AGENT_DATA_DIR: dir,
        HZN_EXCHANGE_URL: exchangeUrl,
        HZN_AGENT_POLL_SECONDS: '1',
        // A workload that fails is noticed in seconds (anax checks containers every minute).
        HZN_AGENT_CONTAINER_CHECK_SECONDS: '3',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const http = httpClient(`http://127.0.0.1:${port}`);
    await eventually('the agent', async () => (await http('GET', '/status')).status === 200, EVENT_MS);
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    };
    return { http, stop };
  };
  let mainAgent: NodeAgent | undefined;
  const startAgent = async () => {
    mainAgent = await spawnAgent(join(dataDir, 'agent'), agentPort);
  };
  const stopAgent = async () => {
    const running = mainAgent;
    mainAgent = undefined;
    await running?.stop();
  };
  const others: NodeAgent[] = [];
  return {
    exchange: httpClient(`http://127.0.0.1:${ports.http}`),
    agent,
    exchangeUrl,
    root: { user: 'root/root', secret: rootPassword },
    startAgent,
    stopAgent,
    async startNodeAgent(name) {
      const started = await spawnAgent(join(dataDir, `agent-${name}`), await freePort());
      others.push(started);
      return started;
    },
    async agbotRound() {
      // npm start's Lambda API is on the port after the Exchange's (scripts/local/settings.ts).
      const url = `http://127.0.0.1:${ports.http + 1}/2015-03-31/functions/open-exchange-dev-agbotRound/invocations`;
      const response = await fetch(url, { method: 'POST', body: '{}' });
      if (response.status !== 200)
        throw new Error(`agbotRound invocation: ${response.status} ${await response.text()}`);
    },
    async stop() {
      await stopAgent();
      await Promise.all(others.map((other) => other.stop()));
      if (launched.child.exitCode === null) {
        launched.child.kill('SIGINT');
        await launched.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` every half second until it gives a value (not undefined or false). */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

/** A request that must succeed (status below 300); its result. */
export async function must(
  http: Http,
  method: string,
  path: string,
  auth: Credentials | undefined,
  body?: unknown,
) {
  const result = await http(method, path, {
    ...(auth ? { auth } : {}),
    ...(body === undefined ? {} : { body }),
  });
  if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`);
  return result;
}

/**
 * Registers a node with a policy through the agent as `hzn register` does: its Exchange record
 * (by an org admin), the agent's node, its policy, the trusted signer, then `configured`.
 */
export async function registerNode(
  system: System,
  node: {
    org: string;
    id: string;
    token: string;
    admin: Credentials;
    purpose: string;
    signerPem: string;
    /** The node's agent (the system's own by default) and more policy properties. */
    agent?: Http;
    properties?: { name: string; value: string }[];
  },
): Promise<void> {
  const { org, id, token } = node;
  const agent = node.agent ?? system.agent;
  await must(system.exchange, 'PUT', `/v1/orgs/${org}/nodes/${id}`, node.admin, {
    name: id,
    token,
    pattern: '',
    publicKey: '',
    arch: HOST.arch,
  });
  await must(agent, 'POST', '/node', undefined, { id, organization: org, token, name: id });
  await must(agent, 'POST', '/node/policy', undefined, {
    properties: [{ name: 'purpose', value: node.purpose }, ...(node.properties ?? [])],
    constraints: [],
  });
  const trusted = await agent('PUT', '/trust/signer.pem', {
    body: node.signerPem,
    headers: { 'content-type': 'text/plain' },
  });
  if (trusted.status !== 200) throw new Error(`PUT /trust: ${trusted.status} ${trusted.text}`);
  await must(agent, 'PUT', '/node/configstate', undefined, { state: 'configured' });
}
