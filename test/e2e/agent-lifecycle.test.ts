import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bootstrap } from '#tables/bootstrap';
import { dynamoClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { EVENT_MS } from '#test/support/deadlines';
import { type Credentials, type Http, httpClient } from '#test/support/http';
import { createOrg, createUser, expectStatus } from '#test/support/world';
import { freePort, waitForPort } from '../../scripts/local/ports.ts';
import { type OfflineServer, startOffline } from './support/serverless-offline.ts';

/**
 * The shipped agent (dist/agent.mjs, built once for the run by the e2e setup) as a child process
 * against the real Exchange (serverless-offline over the run's DynamoDB Local): register, user input and policy both ways,
 * configure, restart, Exchange outage (the Exchange process is really stopped and started again
 * behind a fixed local port), unregister with removeNode=true. The steps build on each other.
 */
const ORG = 'agent-e2e';
const NODE_ID = 'node1';
const TOKEN = 'node1-secret-token';
const rootPassword = process.env.EXCHANGE_ROOT_PW ?? 'root-test-password';
const root: Credentials = { user: 'root/root', secret: rootPassword };
const nodePath = `/v1/orgs/${ORG}/nodes/${NODE_ID}`;

let offline: OfflineServer | undefined;
let exchange: Http;
let proxy: Proxy;
let user: Credentials;
let dataDir: string;
let agentPort: number;
let agentProcess: RunningAgent | undefined;
let agent: Http;

/** Starts serverless-offline over this file's table and points the fixed proxy port at it. */
async function startExchange(): Promise<void> {
  offline = await startOffline({
    dynamoEndpoint: inject('dynamoEndpoint'),
    table: tableName(),
    rootPassword,
    prebuiltDir: inject('exchangeBuildDir'),
  });
  exchange = httpClient(offline.baseUrl);
  proxy?.target(Number(new URL(offline.baseUrl).port));
}

beforeAll(async () => {
  await createTableIfMissing(tableName());
  await bootstrap();
  await startExchange();
  proxy = await startProxy(Number(new URL(offline?.baseUrl ?? '').port));
  const fixtures = { http: exchange, root };
  await createOrg(fixtures, ORG);
  user = await createUser(fixtures, ORG, 'owner');
  // The Exchange checks a node's user input against the services the node may see.
  for (const url of ['svc1', 'svc2', 'svc3']) {
    const service = { label: url, url, version: '1.0.0', arch: 'amd64', sharable: 'multiple' };
    expectStatus(await exchange('POST', `/v1/orgs/${ORG}/services`, { auth: user, body: service }), 201, url);
  }
  const body = { name: 'e2e node', token: TOKEN, pattern: '', publicKey: '' };
  expectStatus(await exchange('PUT', nodePath, { auth: user, body }), 201, `PUT ${nodePath}`);
  dataDir = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
  agentPort = await freePort();
  agent = httpClient(`http://127.0.0.1:${agentPort}`);
  agentProcess = await startAgent();
}, 240_000);

afterAll(async () => {
  await agentProcess?.stop();
  await proxy?.close();
  await offline?.stop();
  await dynamoClient.send(new DeleteTableCommand({ TableName: tableName() })).catch(() => undefined);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const exchangeNode = async () => {
  const result = await exchange('GET', nodePath, { auth: user });
  return result.status === 200 ? result.body.nodes[`${ORG}/${NODE_ID}`] : undefined;
};
const exchangePolicy = async () => (await exchange('GET', `${nodePath}/policy`, { auth: user })).body;
const input = (url: string, value: string) => ({
  serviceOrgid: ORG,
  serviceUrl: url,
  serviceArch: '',
  serviceVersionRange: '[0.0.0,INFINITY)',
  inputs: [{ name: 'VAR', value }],
});

describe('node agent against the real Exchange', { timeout: 180_000 }, () => {
  it('registers the node after the Exchange accepts its credentials', async () => {
    const wrong = await agent('POST', '/node', { body: { id: NODE_ID, organization: ORG, token: 'wrong' } });
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.body.input).toBe('device.token');

    const res = await agent('POST', '/node', {
      body: { id: NODE_ID, organization: ORG, token: TOKEN, name: 'e2e' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: NODE_ID, organization: ORG, configstate: { state: 'configuring' } });
    expect(
      (await agent('POST', '/node', { body: { id: NODE_ID, organization: ORG, token: TOKEN } })).status,
    ).toBe(409);
    const node = await exchangeNode();
    expect(node.arch).toMatch(/^(amd64|arm64|arm|ppc64le|s390x|386)$/);
    const policy = await exchangePolicy();
    expect(policy.properties.map((p: { name: string }) => p.name)).toEqual([
      'platform.hardwareId',
      'platform.cpu',
      'platform.arch',
      'platform.memory',
      'platform.allowPrivileged',
    ]);
    const status = await agent('GET', '/status');
    expect(status.body.configuration.exchange_version).toBe('2.154.0');
  });

  it('writes user input and policy to the Exchange copies', async () => {
    const ui = await agent('POST', '/node/userinput', {
      body: [{ serviceOrgid: ORG, serviceUrl: 'svc1', inputs: [{ name: 'VAR', value: 'local' }] }],
    });
    expect(ui.status, ui.text).toBe(201);
    expect((await exchangeNode()).userInput).toEqual([input('svc1', 'local')]);

    const body = { properties: [{ name: 'purpose', value: 'e2e' }], constraints: ['iame2edev == true'] };
    const policy = await agent('POST', '/node/policy', { body });
    expect(policy.status, policy.text).toBe(201);
    const copy = await exchangePolicy();
    expect(copy.properties[0]).toEqual({ name: 'purpose', value: 'e2e' });
    expect(copy.constraints).toEqual(['iame2edev == true']);
  });

  it('brings changes made in the Exchange into the agent', async () => {
    const patch = await exchange('PATCH', nodePath, {
      auth: user,
      body: { userInput: [input('svc2', 'remote')] },
    });
    expect(patch.status, patch.text).toBe(201);
    const body = { properties: [{ name: 'purpose', value: 'changed-in-exchange' }], constraints: ['a == b'] };
    expect((await exchange('PUT', `${nodePath}/policy`, { auth: user, body })).status).toBe(201);

    await expect
      .poll(async () => (await agent('GET', '/node/userinput')).body, { timeout: EVENT_MS })
      .toEqual([input('svc2', 'remote')]);
    await expect
      .poll(async () => (await agent('GET', '/node/policy')).body.properties[0], { timeout: EVENT_MS })
      .toEqual({ name: 'purpose', value: 'changed-in-exchange' });
    // The agent puts its built-ins back into the Exchange copy, which lacked them.
    await expect
      .poll(async () => (await exchangePolicy()).properties.map((p: { name: string }) => p.name), {
        timeout: EVENT_MS,
      })
      .toContain('platform.hardwareId');
  });

  it('configures the node', async () => {
    const res = await agent('PUT', '/node/configstate', { body: { state: 'configured' } });
    expect(res.status, res.text).toBe(201);
    const events = await agent('GET', '/eventlog', {
      query: { event_code: 'node_configuration_registration_complete' },
    });
    expect(events.body).toHaveLength(1);
  });

  it('keeps every piece of state across an agent restart', async () => {
    const paths = ['/node', '/node/configstate', '/node/userinput', '/node/policy', '/eventlog/all'];
    const before = await Promise.all(paths.map(async (p) => (await agent('GET', p)).body));
    expect(before[1].state).toBe('configured');
    expect(await agentProcess?.stop()).toBe(0); // clean shutdown on SIGTERM
    agentProcess = await startAgent();
    const after = await Promise.all(paths.map(async (p) => (await agent('GET', p)).body));
    expect(after).toEqual(before);
  });

  it('keeps answering while the Exchange is down and pushes local writes once it is back', async () => {
    await offline?.stop();
    offline = undefined;
    expect((await agent('GET', '/node')).status).toBe(200);
    const status = await agent('GET', '/status');
    expect(Object.values(status.body.connectivity)).toEqual([false]);
    const write = await agent('POST', '/node/userinput', {
      body: [{ serviceOrgid: ORG, serviceUrl: 'svc3', inputs: [{ name: 'VAR', value: 'offline' }] }],
    });
    expect(write.status, write.text).toBe(201);
    const policy = await agent('PATCH', '/node/policy', { body: { constraints: ['written == offline'] } });
    expect(policy.status, policy.text).toBe(201);
    expect((await agent('GET', '/node/userinput')).body).toEqual([input('svc3', 'offline')]);
    await expect
      .poll(
        async () =>
          (await agent('GET', '/eventlog', { query: { event_code: 'node_heartbeat_failed' } })).body.length,
        { timeout: EVENT_MS },
      )
      .toBe(1);

    await startExchange();
    await expect
      .poll(async () => (await exchangeNode())?.userInput, { timeout: EVENT_MS })
      .toEqual([input('svc3', 'offline')]);
    await expect
      .poll(async () => (await exchangePolicy())?.constraints, { timeout: EVENT_MS })
      .toEqual(['written == offline']);
    // Nothing written locally was lost or overwritten by the Exchange's older copy.
    expect((await agent('GET', '/node/userinput')).body).toEqual([input('svc3', 'offline')]);
  });

  it('unregisters with removeNode=true: the Exchange node is gone, GET /node answers 404 (docs/agent.md)', async () => {
    const res = await agent('DELETE', '/node', { query: { removeNode: 'true' } });
    expect(res.status, res.text).toBe(204);
    const after = await agent('GET', '/node');
    expect(after.status).toBe(404);
    expect((await exchange('GET', nodePath, { auth: user })).status).toBe(404);
    expect((await exchange('GET', nodePath, { auth: root })).status).toBe(404);
  });
});

interface RunningAgent {
  process: ChildProcess;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `node dist/agent.mjs` with a temp data dir and a free port, polling every second. */
async function startAgent(): Promise<RunningAgent> {
  const child = spawn(process.execPath, ['dist/agent.mjs'], {
    env: {
      PATH: process.env.PATH,
      HZN_AGENT_PORT: String(agentPort),
      HZN_AGENT_DATA_DIR: dataDir,
      HZN_EXCHANGE_URL: `http://127.0.0.1:${proxy.port}/v1`,
      HZN_AGENT_POLL_SECONDS: '1',
      HZN_AGENT_RETRY_MAX_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitForPort(agentPort, 15_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`the agent did not start: ${(error as Error).message}\n${output}`);
  }
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

interface Proxy {
  port: number;
  target(port: number): void;
  close(): Promise<void>;
}

/**
 * A fixed local port in front of the Exchange: serverless-offline picks a new port on every
 * start, the agent keeps one URL. While nothing listens behind it, connections are dropped.
 */
async function startProxy(initialTarget: number): Promise<Proxy> {
  let targetPort = initialTarget;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    target(next) {
      targetPort = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
