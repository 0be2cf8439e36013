import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MS } from '#test/support/deadlines';
import { type Credentials, type Http, httpClient } from '#test/support/http';
import { createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { freePort, waitForPort } from '../../scripts/local/ports.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * The shipped agent (dist/agent.mjs) against the real Exchange (serverless-offline over DynamoDB
 * Local): service configuration state round trips through the Exchange node's registered
 * services, and node management statuses created in the Exchange reach the agent, whose changes
 * go back. The steps build on each other.
 */
const ORG = freshId('agent-nmp-e2e');
const NODE_ID = 'node1';
const TOKEN = 'node1-secret-token';
const nodePath = `/v1/orgs/${ORG}/nodes/${NODE_ID}`;
const KEY = `${ORG}/upgrade1`;

const server = useSharedOffline();
let user: Credentials;
let dataDir: string;
let child: ChildProcess | undefined;
let agent: Http;

beforeAll(async () => {
  const fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  await createOrg(fixtures, ORG);
  user = await createUser(fixtures, ORG, 'owner');
  // The Exchange checks a node's user input against the services the node may see.
  const service = { label: 'svc-e2e', url: 'svc-e2e', version: '1.0.0', arch: 'amd64', sharable: 'multiple' };
  expectStatus(
    await server.http('POST', `/v1/orgs/${ORG}/services`, { auth: user, body: service }),
    201,
    'service',
  );
  // A node's management status needs its policy (docs/nmp.md#statuses-hang-on-their-policy).
  const admin = await createUser(fixtures, ORG, 'admin', { admin: true });
  for (const name of ['upgrade1', 'marker']) {
    const nmp = `/v1/orgs/${ORG}/managementpolicies/${name}`;
    expectStatus(
      await server.http('POST', nmp, { auth: admin, body: { label: name, enabled: false } }),
      201,
      nmp,
    );
  }
  const body = { name: 'e2e node', token: TOKEN, pattern: '', publicKey: '' };
  expectStatus(await server.http('PUT', nodePath, { auth: user, body }), 201, `PUT ${nodePath}`);
  dataDir = mkdtempSync(join(tmpdir(), 'agent-nmp-e2e-'));
  const port = await freePort();
  let output = '';
  child = spawn(process.execPath, ['dist/agent.mjs'], {
    env: {
      PATH: process.env.PATH,
      HZN_AGENT_PORT: String(port),
      HZN_AGENT_DATA_DIR: dataDir,
      HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
      HZN_AGENT_POLL_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (c: Buffer) => (output += c.toString()));
  await waitForPort(port, 15_000).catch((error) => {
    throw new Error(`the agent did not start: ${(error as Error).message}\n${output}`);
  });
  agent = httpClient(`http://127.0.0.1:${port}`);
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const exchangeNode = async () =>
  (await server.http('GET', nodePath, { auth: user })).body.nodes[`${ORG}/${NODE_ID}`];
const exchangeStatus = async () => {
  const res = await server.http('GET', `${nodePath}/managementStatus/upgrade1`, { auth: user });
  return res.status === 200 ? res.body.managementStatus[KEY].agentUpgradePolicyStatus : undefined;
};
const states = async () =>
  (await agent('GET', '/service/configstate')).body.configstates.map(
    (s: { org: string; url: string; configState: string }) => `${s.org}/${s.url} ${s.configState}`,
  );
const localStatus = async () =>
  (await agent('GET', '/nodemanagement/status')).body[KEY]?.agentUpgradePolicyStatus;

describe('agent services and node management against the real Exchange', { timeout: EVENT_MS }, () => {
  it('registers the node', async () => {
    const res = await agent('POST', '/node', { body: { id: NODE_ID, organization: ORG, token: TOKEN } });
    expect(res.status, res.text).toBe(201);
  });

  it('configures a service: user input and an active registration land on the Exchange node', async () => {
    const res = await agent('POST', '/service/config', {
      body: {
        url: 'svc-e2e',
        attributes: [{ type: 'UserInputAttributes', label: 'vars', mappings: { GREETING: 'hi' } }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const node = await exchangeNode();
    expect(node.registeredServices).toEqual([
      expect.objectContaining({ url: `${ORG}/svc-e2e`, configState: 'active', numAgreements: 0 }),
    ]);
    expect(node.userInput).toEqual([
      expect.objectContaining({ serviceUrl: 'svc-e2e', inputs: [{ name: 'GREETING', value: 'hi' }] }),
    ]);
  });

  it('suspends and resumes the service: the Exchange node follows each time', async () => {
    const suspend = await agent('POST', '/service/configstate', {
      body: { url: 'svc-e2e', org: ORG, configstate: 'suspended' },
    });
    expect(suspend.status, suspend.text).toBe(200);
    expect(suspend.body.configState).toBe('suspended');
    expect((await exchangeNode()).registeredServices[0].configState).toBe('suspended');
    expect(await states()).toEqual([`${ORG}/svc-e2e suspended`]);
    await agent('POST', '/service/configstate', { body: { url: '', org: '', configState: 'active' } });
    expect((await exchangeNode()).registeredServices[0].configState).toBe('active');
  });

  it('takes a state changed in the Exchange on its next poll', async () => {
    const registered = (await exchangeNode()).registeredServices;
    const body = { registeredServices: [{ ...registered[0], configState: 'suspended' }] };
    expect((await server.http('PATCH', nodePath, { auth: user, body })).status).toBe(201);
    await expect.poll(states, { timeout: EVENT_MS }).toEqual([`${ORG}/svc-e2e suspended`]);
  });

  it('picks up a management status a user of the org created in the Exchange', async () => {
    const body = { agentUpgradePolicyStatus: { scheduledTime: '2031-01-01T00:00:00Z', status: 'waiting' } };
    const put = await server.http('PUT', `${nodePath}/managementStatus/upgrade1`, { auth: user, body });
    expect(put.status, put.text).toBe(201);
    await expect.poll(async () => (await localStatus())?.status, { timeout: EVENT_MS }).toBe('waiting');
    const next = await agent('GET', '/nodemanagement/nextjob', { query: { ready: 'false' } });
    expect(Object.keys(next.body)).toEqual([KEY]);
  });

  it('writes each local status change back to the Exchange', async () => {
    const set = (status: string) =>
      agent('PUT', '/nodemanagement/status/upgrade1', { body: { agentUpgradePolicyStatus: { status } } });
    expect((await set('downloaded')).status).toBe(201);
    expect(await exchangeStatus()).toMatchObject({ status: 'downloaded', startTime: '' });
    await set('initiated');
    const initiated = await exchangeStatus();
    expect(initiated.status).toBe('initiated');
    expect(initiated.startTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await set('successful');
    const done = await exchangeStatus();
    expect(done).toMatchObject({ status: 'successful', startTime: initiated.startTime });
    expect(done.endTime).toMatch(/Z$/);
    const reset = await agent('PUT', '/nodemanagement/reset/upgrade1');
    expect(reset.status).toBe(201);
    expect(await exchangeStatus()).toMatchObject({ status: 'waiting', startTime: '', endTime: '' });
    // The agent's own writes coming back on the poll change nothing: a status written after them
    // reaches the agent on a later poll than theirs (changes are read in order); once it has, the
    // agent's own writes were read too.
    const marker = { agentUpgradePolicyStatus: { scheduledTime: '2031-01-01T00:00:00Z', status: 'waiting' } };
    const markerPath = `${nodePath}/managementStatus/marker`;
    expect((await server.http('PUT', markerPath, { auth: user, body: marker })).status).toBe(201);
    await expect
      .poll(async () => (await agent('GET', '/nodemanagement/status')).body[`${ORG}/marker`])
      .toBeDefined();
    expect(await localStatus()).toMatchObject({ status: 'waiting' });
    expect((await server.http('DELETE', markerPath, { auth: user })).status).toBe(204);
    await expect
      .poll(async () => (await agent('GET', '/nodemanagement/status')).body[`${ORG}/marker`])
      .toBeUndefined();
    const events = await agent('GET', '/eventlog', {
      query: { event_code: 'node_management_status_update_complete' },
    });
    expect(events.body).toHaveLength(4);
  });

  it('drops a status deleted in the Exchange', async () => {
    expect(
      (await server.http('DELETE', `${nodePath}/managementStatus/upgrade1`, { auth: user })).status,
    ).toBe(204);
    await expect
      .poll(async () => (await agent('GET', '/nodemanagement/status')).body, { timeout: EVENT_MS })
      .toEqual({});
  });

  it('unregisters: registered services cleared in the Exchange', async () => {
    const res = await agent('DELETE', '/node');
    expect(res.status, res.text).toBe(204);
    expect((await exchangeNode()).registeredServices).toEqual([]);
  });
});
