import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type RecordingServer,
  type Route,
  startRecordingServer,
} from '../../test-support/recording-server.ts';
import { hzn } from '../../test-support/run-hzn.ts';
import { tempDir } from '../../test-support/temp-dir.ts';

/**
 * `hzn exchange nmp …`, `hzn exchange node management …` and `hzn nmstatus …`: the REST calls
 * upstream's CLI makes (open-horizon/anax cli/exchange/nmp.go, node.go, cli/nm_status) and its
 * output, against a recording server.
 */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.on({ 'GET /v1/admin/version': { status: 200, body: '2.154.0' } });
});

const dir = tempDir('hzn-nmp-');
const env = (more: Record<string, string> = {}) => ({
  HZN_EXCHANGE_URL: `${server.url}/v1/`,
  HZN_ORG_ID: 'org1',
  HZN_EXCHANGE_USER_AUTH: 'admin:pw',
  HORIZON_URL: server.url,
  ...more,
});
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const on = (routes: Record<string, Route>) => server.on(routes);
const writes = () => server.calls().filter((c) => !c.startsWith('GET'));
const bodyOf = (call: string) => {
  const req = server.requests.find((r) => `${r.method} ${r.url}` === call);
  if (!req) throw new Error(`no ${call} in ${server.calls().join(', ')}`);
  return JSON.parse(req.body);
};

const STORED = {
  owner: 'org1/admin',
  label: 'upgrade',
  description: 'upgrade',
  constraints: [],
  properties: [],
  patterns: ['web'],
  enabled: false,
  start: 'now',
  startWindow: 60,
  agentUpgradePolicy: { allowDowngrade: false, manifest: 'm1' },
  created: '2031-01-01T00:00:00.000000Z[UTC]',
  lastUpdated: '2031-01-01T00:00:00.000000Z[UTC]',
};
const NMP_PATH = '/v1/orgs/org1/managementpolicies/up1';

describe('hzn exchange nmp', () => {
  it('new prints the template, with no call', async () => {
    const result = await hzn(['exchange', 'nmp', 'new'], { env: {} });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"start": "<RFC3339 timestamp> | now",');
    expect(server.calls()).toEqual([]);
  });

  it('add POSTs the file as Go marshals it (nulls for absent lists, start defaulted), checking the manifest in the MMS first', async () => {
    on({
      'GET /api/v1/objects/org1?filters=true&objectType=agent_upgrade_manifests&objectID=m1': {
        status: 200,
        body: [],
      },
      [`POST ${NMP_PATH}`]: { status: 201, body: { code: 'ok', msg: 'created' } },
    });
    const nmp = {
      label: 'upgrade',
      patterns: ['web'],
      enabled: true,
      agentUpgradePolicy: { manifest: 'm1' },
      owner: 'x',
    };
    const result = await hzn(['exchange', 'nmp', 'add', 'up1', '-f', file('nmp.json', nmp)], {
      env: env({ HZN_FSS_CSSURL: `${server.url}/` }),
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Node management policy org1/up1 added in the Horizon Exchange\n');
    expect(writes()).toEqual([`POST ${NMP_PATH}`]);
    expect(bodyOf(`POST ${NMP_PATH}`)).toEqual({
      label: 'upgrade',
      description: '',
      constraints: null,
      properties: null,
      patterns: ['web'],
      enabled: true,
      start: 'now',
      startWindow: 0,
      agentUpgradePolicy: { manifest: 'm1', allowDowngrade: false },
    });
  });

  it('add PUTs after a 403 (the policy exists) and says updated', async () => {
    on({
      [`POST ${NMP_PATH}`]: { status: 403, body: { code: 'already-exists', msg: 'exists' } },
      [`PUT ${NMP_PATH}`]: { status: 201, body: { code: 'ok', msg: 'updated' } },
    });
    const result = await hzn(
      [
        'exchange',
        'nmp',
        'add',
        'up1',
        '-f',
        file('nmp2.json', { label: 'l', patterns: ['p'], enabled: false }),
      ],
      {
        env: env(),
      },
    );
    expect(result.stdout).toBe('Node management policy org1/up1 updated in the Horizon Exchange\n');
    expect(writes()).toEqual([`POST ${NMP_PATH}`, `PUT ${NMP_PATH}`]);
  });

  it('add refuses, before any write: no constraints or patterns without --no-constraints, a bad start, a missing manifest', async () => {
    const bare = await hzn(
      ['exchange', 'nmp', 'add', 'up1', '-f', file('bare.json', { label: 'l', enabled: true })],
      { env: env() },
    );
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/--no-constraints/);
    const start = await hzn(
      [
        'exchange',
        'nmp',
        'add',
        'up1',
        '-f',
        file('start.json', { label: 'l', patterns: ['p'], enabled: true, start: 'soon' }),
      ],
      {
        env: env(),
      },
    );
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/Incorrect node management policy format/);
    on({ 'GET /api/v1/objects/org1': { status: 404, body: {} } });
    const missing = await hzn(
      [
        'exchange',
        'nmp',
        'add',
        'up1',
        '-f',
        file('m.json', {
          label: 'l',
          patterns: ['p'],
          enabled: true,
          agentUpgradePolicy: { manifest: 'nope' },
        }),
      ],
      { env: env({ HZN_FSS_CSSURL: server.url }) },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/manifest 'nope' which does not exist in org org1/);
    expect(writes()).toEqual([]);
  });

  it('list: names, -l the policies as Go prints them, a missing one exit 8, none []', async () => {
    on({
      'GET /v1/orgs/org1/managementpolicies': {
        status: 200,
        body: { managementPolicy: { 'org1/up1': STORED }, lastIndex: 0 },
      },
    });
    expect((await hzn(['exchange', 'nmp', 'list'], { env: env() })).stdout).toBe('[\n  "org1/up1"\n]\n');
    const long = JSON.parse((await hzn(['exchange', 'nmp', 'ls', '-l'], { env: env() })).stdout);
    expect(Object.keys(long['org1/up1'])).toEqual([
      'owner',
      'label',
      'description',
      'constraints',
      'properties',
      'patterns',
      'enabled',
      'start',
      'startWindow',
      'agentUpgradePolicy',
      'lastUpdated',
      'created',
    ]);
    expect((await hzn(['exchange', 'nmp', 'list', 'absent'], { env: env() })).code).toBe(8);
    on({
      'GET /v1/orgs/org1/managementpolicies': { status: 404, body: { managementPolicy: {}, lastIndex: 0 } },
    });
    expect((await hzn(['exchange', 'nmp', 'list'], { env: env() })).stdout).toBe('[]\n');
  });

  it('enable GETs, then PUTs the policy enabled, owner and times blanked, empty lists as null', async () => {
    on({
      [`GET ${NMP_PATH}`]: { status: 200, body: { managementPolicy: { 'org1/up1': STORED }, lastIndex: 0 } },
      [`PUT ${NMP_PATH}`]: { status: 201, body: { code: 'ok', msg: 'updated' } },
    });
    const result = await hzn(
      ['exchange', 'nmp', 'enable', 'up1', '-s', '2031-02-01T00:00:00Z', '-w', '120'],
      { env: env() },
    );
    expect(result.stdout).toBe('Node management policy org1/up1 enabled in the Horizon Exchange\n');
    expect(bodyOf(`PUT ${NMP_PATH}`)).toEqual({
      label: 'upgrade',
      description: 'upgrade',
      constraints: null,
      properties: [],
      patterns: ['web'],
      enabled: true,
      start: '2031-02-01T00:00:00Z',
      startWindow: 120,
      agentUpgradePolicy: { manifest: 'm1', allowDowngrade: false },
    });
    server.reset();
    on({
      'GET /v1/admin/version': { status: 200, body: '2.154.0' },
      [`GET ${NMP_PATH}`]: { status: 200, body: { managementPolicy: { 'org1/up1': STORED }, lastIndex: 0 } },
    });
    const already = await hzn(['exchange', 'nmp', 'disable', 'up1'], { env: env() });
    expect(already.stdout).toBe(
      'Node management policy org1/up1 is already disabled in the Horizon Exchange\n',
    );
    expect(writes()).toEqual([]);
  });

  it('remove DELETEs (-f skips the prompt); 404 is exit 8', async () => {
    on({ [`DELETE ${NMP_PATH}`]: { status: 204 } });
    const result = await hzn(['exchange', 'nmp', 'rm', 'up1', '-f'], { env: env() });
    expect(result.stdout).toBe('Node management policy org1/up1 removed from the Horizon Exchange.\n');
    on({ [`DELETE ${NMP_PATH}`]: { status: 404, body: {} } });
    expect((await hzn(['exchange', 'nmp', 'rm', 'up1', '-f'], { env: env() })).code).toBe(8);
  });

  it('status: checks the policy, then one GET per node; short strings, or -l the objects', async () => {
    const status = (s: string) => ({
      agentUpgradePolicyStatus: {
        scheduledTime: 't',
        startTime: '',
        endTime: '',
        upgradedVersions: { softwareVersion: '2.0.0', certVersion: '', configVersion: '' },
        status: s,
        errorMessage: '',
        lastUpdated: 'x',
      },
    });
    on({
      [`GET ${NMP_PATH}`]: { status: 200, body: { managementPolicy: { 'org1/up1': STORED }, lastIndex: 0 } },
      'GET /v1/orgs/org1/nodes': {
        status: 200,
        body: { nodes: { 'org1/n1': {}, 'org1/n2': {}, 'org1/n3': {} }, lastIndex: 0 },
      },
      'GET /v1/orgs/org1/nodes/n1/managementStatus/up1': {
        status: 200,
        body: { managementStatus: { 'org1/up1': status('successful') } },
      },
      'GET /v1/orgs/org1/nodes/n2/managementStatus/up1': {
        status: 200,
        body: { managementStatus: { 'org1/up1': status('rollback successful') } },
      },
    });
    const short = await hzn(['exchange', 'nmp', 'status', 'up1'], { env: env() });
    expect(JSON.parse(short.stdout)).toEqual({ 'org1/n1': 'successful', 'org1/n2': 'rollback successful' });
    const long = JSON.parse((await hzn(['exchange', 'nmp', 'status', 'up1', '-l'], { env: env() })).stdout);
    expect(long['org1/n1']['org1/up1']).toEqual({
      agentUpgradePolicyStatus: {
        scheduledTime: 't',
        upgradedVersions: { softwareVersion: '2.0.0', certVersion: '', configVersion: '' },
        status: 'successful',
      },
    });
  });
});

describe('hzn exchange node management', () => {
  const NODE = '/v1/orgs/org1/nodes/n1';
  const statuses = {
    managementStatus: {
      'org1/a': {
        agentUpgradePolicyStatus: {
          scheduledTime: 't',
          upgradedVersions: {},
          status: 'failed',
          errorMessage: 'boom',
          lastUpdated: 'x',
        },
      },
      'org1/b': {
        agentUpgradePolicyStatus: { scheduledTime: 't', upgradedVersions: {}, status: 'successful' },
      },
    },
    lastIndex: 0,
  };

  it('list: the enabled policies that apply to the node (-a: disabled ones too)', async () => {
    on({
      [`GET ${NODE}`]: {
        status: 200,
        body: { nodes: { 'org1/n1': { pattern: 'org1/web', publicKey: 'k' } } },
      },
      [`GET ${NODE}/policy`]: { status: 200, body: { properties: [], constraints: [] } },
      'GET /v1/orgs/org1/managementpolicies': {
        status: 200,
        body: {
          managementPolicy: {
            'org1/up1': STORED,
            'org1/on': { ...STORED, enabled: true, patterns: ['org1/web'] },
            'org1/other': { ...STORED, enabled: true, patterns: ['db'] },
          },
        },
      },
    });
    expect(
      JSON.parse((await hzn(['exchange', 'node', 'management', 'list', 'n1'], { env: env() })).stdout),
    ).toEqual({ 'org1/on': 'enabled' });
    expect(
      JSON.parse((await hzn(['exchange', 'node', 'mgmt', 'ls', 'n1', '-a'], { env: env() })).stdout),
    ).toEqual({
      'org1/on': 'enabled',
      'org1/up1': 'disabled',
    });
  });

  it('status and reset: reset PUTs each status back with status "reset"', async () => {
    on({
      [`GET ${NODE}`]: { status: 200, body: { nodes: { 'org1/n1': {} } } },
      [`GET ${NODE}/managementStatus`]: { status: 200, body: statuses },
      [`PUT ${NODE}/managementStatus/a`]: { status: 201, body: {} },
    });
    expect(
      JSON.parse((await hzn(['exchange', 'node', 'management', 'status', 'n1'], { env: env() })).stdout),
    ).toEqual({
      'org1/a': 'failed',
      'org1/b': 'successful',
    });
    const reset = await hzn(['exchange', 'node', 'management', 'reset', 'n1', '-p', 'a'], { env: env() });
    expect(reset.stdout).toBe(
      'Node management status for a is reset.\nThe the Horizon agent for node org1/n1 will re-evaluate the management policies.\n',
    );
    expect(writes()).toEqual([`PUT ${NODE}/managementStatus/a`]);
    expect(bodyOf(`PUT ${NODE}/managementStatus/a`)).toEqual({
      agentUpgradePolicyStatus: {
        scheduledTime: 't',
        upgradedVersions: { softwareVersion: '', certVersion: '', configVersion: '' },
        status: 'reset',
        errorMessage: 'boom',
      },
    });
  });
});

describe('hzn nmstatus', () => {
  it('list asks the local agent: short strings, -l the objects, {} on 404; reset PUTs the agent', async () => {
    const local = {
      'org1/up1': {
        agentUpgradePolicyStatus: { scheduledTime: 't', status: 'waiting' },
        agentUpgradeInternal: {},
      },
    };
    on({
      'GET /nodemanagement/status': { status: 200, body: local },
      'PUT /nodemanagement/reset': { status: 201, body: {} },
      'PUT /nodemanagement/reset/org1/up1': { status: 201, body: {} },
    });
    expect((await hzn(['nmstatus', 'list'], { env: env() })).stdout).toBe(
      '{\n  "org1/up1": "waiting"\n}\n\n',
    );
    expect(JSON.parse((await hzn(['nmstatus', 'list', '-l'], { env: env() })).stdout)).toEqual(local);
    expect((await hzn(['nmstatus', 'list', 'absent'], { env: env() })).stdout).toBe('{}\n');
    expect((await hzn(['nmstatus', 'reset'], { env: env() })).stdout).toBe(
      'The following node management policy will be re-evaluated: org1/up1.\n',
    );
    expect((await hzn(['nmstatus', 'reset', 'org1/up1'], { env: env() })).stdout).toBe(
      'The following node management policy will be re-evaluated: org1/up1.\n',
    );
    expect(writes()).toEqual(['PUT /nodemanagement/reset', 'PUT /nodemanagement/reset/org1/up1']);
  });
});
