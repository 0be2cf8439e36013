import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Credentials, type Http, httpClient } from '#test/support/http';
import { freePorts, type Launched, launch } from '#test/support/launcher';
import { HOST } from '../../../agent/test-support/harness.ts';
import { freePort } from '../../../scripts/local/ports.ts';
import { prebuiltFunctions } from './prebuilt.ts';

/**
 * The whole system for an end-to-end test: `npm start` (DynamoDB Local, the Exchange, its agbot)
 * and one built `dist/agent.mjs`, each stopped by its own pid in `stop()`.
 */
export interface System {
  exchange: Http;
  agent: Http;
  exchangeUrl: string;
  root: Credentials;
  startAgent(): Promise<void>;
  stopAgent(): Promise<void>;
  /**
   * Runs the in-stack agbot's round now, as its schedule (every minute) would: a test that waits
   * on what only a scheduled round does (node health, timeouts) drives the schedule instead.
   */
  agbotRound(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSystem(name: string, rootPassword: string): Promise<System> {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const ports = await freePorts();
  const agentPort = await freePort();
  const launched: Launched = launch({
    ...prebuiltFunctions(),
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
  let agentProcess: ChildProcess | undefined;

  const startAgent = async () => {
    agentProcess = spawn(process.execPath, ['dist/agent.mjs'], {
      env: {
        PATH: process.env.PATH,
        DOCKER_HOST: process.env.DOCKER_HOST,
        HZN_AGENT_PORT: String(agentPort),
        HZN_AGENT_DATA_DIR: join(dataDir, 'agent'),
        HZN_EXCHANGE_URL: exchangeUrl,
        HZN_AGENT_POLL_SECONDS: '1',
        // A workload that fails is noticed in seconds (anax checks containers every minute).
        HZN_AGENT_CONTAINER_CHECK_SECONDS: '3',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await eventually('the agent', async () => (await agent('GET', '/status')).status === 200, 30_000);
  };
  const stopAgent = async () => {
    const child = agentProcess;
    agentProcess = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    exchange: httpClient(`http://127.0.0.1:${ports.http}`),
    agent,
    exchangeUrl,
    root: { user: 'root/root', secret: rootPassword },
    startAgent,
    stopAgent,
    async agbotRound() {
      // npm start's Lambda API is on the port after the Exchange's (scripts/local/settings.ts).
      const url = `http://127.0.0.1:${ports.http + 1}/2015-03-31/functions/open-exchange-dev-agbotRound/invocations`;
      const response = await fetch(url, { method: 'POST', body: '{}' });
      if (response.status !== 200)
        throw new Error(`agbotRound invocation: ${response.status} ${await response.text()}`);
    },
    async stop() {
      await stopAgent();
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
  node: { org: string; id: string; token: string; admin: Credentials; purpose: string; signerPem: string },
): Promise<void> {
  const { org, id, token } = node;
  await must(system.exchange, 'PUT', `/v1/orgs/${org}/nodes/${id}`, node.admin, {
    name: id,
    token,
    pattern: '',
    publicKey: '',
    arch: HOST.arch,
  });
  await must(system.agent, 'POST', '/node', undefined, { id, organization: org, token, name: id });
  await must(system.agent, 'POST', '/node/policy', undefined, {
    properties: [{ name: 'purpose', value: node.purpose }],
    constraints: [],
  });
  const trusted = await system.agent('PUT', '/trust/signer.pem', {
    body: node.signerPem,
    headers: { 'content-type': 'text/plain' },
  });
  if (trusted.status !== 200) throw new Error(`PUT /trust: ${trusted.status} ${trusted.text}`);
  await must(system.agent, 'PUT', '/node/configstate', undefined, { state: 'configured' });
}
