import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordingServer, startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';
import { tempDir } from './test-support/temp-dir.ts';

/** `hzn register` (docs/hzn-behaviour.md#hzn-register): the order of its Exchange and agent calls, its bodies, its failures. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const dir = tempDir('hzn-register-');
const env = () => ({
  HORIZON_URL: server.url,
  HZN_EXCHANGE_URL: `${server.url}/v1`,
  HZN_ORG_ID: 'org1',
  HZN_EXCHANGE_USER_AUTH: 'admin:pw',
});
const unconfigured = {
  id: '',
  organization: null,
  pattern: null,
  configstate: { state: 'unconfigured', last_update_time: 0 },
};
const basicAuth = (header: unknown) => Buffer.from(String(header).replace('Basic ', ''), 'base64').toString();

function agentAndExchange(extra: Record<string, Parameters<RecordingServer['on']>[0][string]> = {}) {
  server.on({
    'GET /v1/admin/version': { status: 200, body: '2.154.0' },
    'GET /node': { status: 200, body: unconfigured },
    'GET /status': { status: 200, body: { configuration: { architecture: 'amd64' } } },
    'GET /v1/orgs/org1/nodes/n1': { status: 404, body: { nodes: {} } },
    'PUT /v1/orgs/org1/nodes/n1': { status: 201, body: { code: 'ok', msg: 'node added or updated' } },
    'PUT /v1/orgs/org1/nodes/n1/policy': { status: 201, body: {} },
    'POST /node': { status: 201, body: {} },
    'POST /node/userinput': { status: 201, body: {} },
    'PUT /node/configstate': { status: 201 },
    ...extra,
  });
}

describe('register', () => {
  it('creates the Exchange node with user creds, puts the policy there (v2), then initialises and configures the agent', async () => {
    agentAndExchange();
    const policy = join(dir, 'policy.json');
    writeFileSync(
      policy,
      '{"properties":[{"name":"purpose","value":"test"}],"deployment":{"properties":[],"constraints":["a == b"]}}',
    );
    const inputs = join(dir, 'inputs.json');
    writeFileSync(
      inputs,
      '[{"serviceOrgid":"org1","serviceUrl":"hello","inputs":[{"name":"HW_WHO","value":"you"}]}]',
    );
    const result = await hzn(
      ['register', '-n', 'n1:tok', '--policy', policy, '-f', inputs, '-m', 'my-node'],
      { env: env() },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.calls()).toEqual([
      'GET /v1/admin/version',
      'GET /node',
      'GET /status',
      'GET /v1/orgs/org1/nodes/n1',
      'GET /v1/orgs/org1/nodes/n1',
      'PUT /v1/orgs/org1/nodes/n1?noheartbeat=true',
      'PUT /v1/orgs/org1/nodes/n1/policy',
      'POST /node',
      'POST /node/userinput',
      'PUT /node/configstate',
    ]);
    const [, , , asNode, asUser, put, putPolicy, init, userinput, configstate] = server.requests;
    expect(basicAuth(asNode?.headers.authorization)).toBe('org1/n1:tok');
    expect(basicAuth(asUser?.headers.authorization)).toBe('org1/admin:pw');
    expect(JSON.parse(put?.body ?? '')).toEqual({
      token: 'tok',
      name: 'my-node',
      nodeType: 'device',
      isNamespaceScoped: false,
      pattern: '',
      registeredServices: null,
      msgEndPoint: '',
      softwareVersions: {},
      publicKey: '',
      arch: '',
      userInput: null,
    });
    expect(basicAuth(putPolicy?.headers.authorization)).toBe('org1/n1:tok');
    expect(JSON.parse(putPolicy?.body ?? '')).toMatchObject({
      nodePolicyVersion: 'v2',
      properties: [{ name: 'purpose', value: 'test' }],
    });
    expect(JSON.parse(init?.body ?? '')).toEqual({
      id: 'n1',
      organization: 'org1',
      pattern: '',
      name: 'my-node',
      nodeType: 'device',
      clusterNamespace: null,
      token: 'tok',
      ha_group: '',
    });
    expect(JSON.parse(userinput?.body ?? '')[0].inputs).toEqual([{ name: 'HW_WHO', value: 'you' }]);
    expect(JSON.parse(configstate?.body ?? '')).toEqual({ state: 'configured' });
    expect(result.stdout).toContain('Node n1 created.\n');
    expect(result.stdout.trim().split('\n').at(-1)).toBe(
      "Horizon node is registered. Workload agreement negotiation should begin shortly. Run 'hzn agreement list' to view.",
    );
  });

  it('-s waits with a progress line until the service has run for 5 polls', async () => {
    let polls = 0;
    agentAndExchange({
      'GET /v1/orgs/org1/nodes/n1': {
        status: 200,
        body: { nodes: { 'org1/n1': { name: 'n1', nodeType: 'device', pattern: '' } } },
      },
      'GET /agreement': () => {
        polls += 1;
        const active =
          polls < 2
            ? []
            : [
                {
                  current_agreement_id: 'a',
                  agreement_execution_start_time: polls < 3 ? 0 : 99,
                  workload_to_run: { org: 'org1', url: 'hello' },
                },
              ];
        return { status: 200, body: { agreements: { active, archived: [] } } };
      },
    });
    const result = await hzn(['register', '-n', 'n1:tok', '-s', 'hello', '-t', '120'], { env: env() });
    expect(result.code).toBe(0);
    const progress = result.stdout.split('\n').filter((l) => l.startsWith('\torg1/hello'));
    expect(progress).toEqual([
      '\torg1/hello \tProgress so far: waiting for an agreement',
      '\torg1/hello \tProgress so far: agreement formed, waiting for execution',
      '\torg1/hello \tProgress so far: executing',
      '\torg1/hello \tProgress so far: executing',
      '\torg1/hello \tProgress so far: executing',
      '\torg1/hello \tProgress so far: executing',
      '\torg1/hello \tSuccess',
    ]);
    // The Exchange node exists with the node's token: no user call, no PUT.
    expect(server.calls().filter((c) => c.startsWith('PUT /v1'))).toEqual([]);
  });

  it('-s timing out prints the error events and still exits 0', async () => {
    agentAndExchange({
      'GET /v1/orgs/org1/nodes/n1': { status: 200, body: { nodes: { 'org1/n1': { name: 'n1' } } } },
      'GET /agreement': { status: 200, body: { agreements: { active: [], archived: [] } } },
      'GET /eventlog': { status: 200, body: [{ message: 'image pull failed' }] },
    });
    const result = await hzn(['register', '-n', 'n1:tok', '-s', 'hello', '-t', '6'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Timeout waiting for service org1/hello to successfully start.');
    expect(result.stdout).toContain('  image pull failed\n');
  });

  it('an already registered agent is exit 5 before anything is written', async () => {
    agentAndExchange({
      'GET /node': {
        status: 200,
        body: { id: 'n1', organization: 'org1', configstate: { state: 'configured' } },
      },
    });
    const result = await hzn(['register', '-n', 'n1:tok'], { env: env() });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^Error: this Horizon node is already registered/);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a failed configstate is rolled back (DELETE /node?block=true) and exits 99', async () => {
    agentAndExchange({
      'GET /v1/orgs/org1/nodes/n1': { status: 200, body: { nodes: { 'org1/n1': { name: 'n1' } } } },
      'PUT /node/configstate': { status: 400, body: { error: 'variable HW_WHO is missing' } },
      'DELETE /node': { status: 204 },
    });
    const result = await hzn(['register', '-n', 'n1:tok'], { env: env() });
    expect(result.code).toBe(99);
    expect(server.calls().slice(-2)).toEqual(['PUT /node/configstate', 'DELETE /node?block=true']);
    expect(result.stderr).toContain(
      'Error: Registration failed. Node successfully returned to unregistered state.\n',
    );
  });

  it('a missing or malformed --policy/-f file fails naming it, exit 4/1, before any call', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"properties": [');
    agentAndExchange();
    const missing = await hzn(['register', '-n', 'n1:tok', '--policy', join(dir, 'none.json')], {
      env: env(),
    });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^Error: reading .*none\.json failed: ENOENT/);
    const malformed = await hzn(['register', '-n', 'n1:tok', '-f', bad], { env: env() });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(`failed to unmarshal JSON input file ${bad}`);
    expect(server.requests).toEqual([]);
  });

  it('no org anywhere → exit 1 naming HZN_ORG_ID', async () => {
    const result = await hzn(['register'], { env: { HORIZON_URL: server.url } });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: Please specify the node organization id (the nodeorg argument, -o or HZN_ORG_ID).\n',
    });
  });
});
