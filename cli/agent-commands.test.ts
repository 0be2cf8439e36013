import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordingServer, startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';

/** Each agent-side command's REST calls and output (docs/hzn-behaviour.md#agent-commands), against a recording server. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// Agent times are printed in local time, as Go does: pin the zone of this test process.
process.env.TZ = 'UTC';
const env = () => ({ HORIZON_URL: server.url });
const STATUS = {
  configuration: {
    exchange_api: 'http://x/v1/',
    exchange_version: '2.154.0',
    required_minimum_exchange_version: '2.124.0',
    preferred_exchange_version: '2.154.0',
    mms_api: '',
    architecture: 'amd64',
    horizon_version: '0.1.0',
    platform_version: '0.1.0',
  },
};
const REGISTERED = {
  id: 'n1',
  organization: 'org1',
  pattern: '',
  name: 'n1',
  nodeType: 'device',
  clusterNamespace: null,
  token_last_valid_time: 1709632800,
  token_valid: true,
  ha_group: '',
  configstate: { state: 'configured', last_update_time: 1709632805 },
};
const agreement = (id: string, started: number) => ({
  name: `ag ${id}`,
  current_agreement_id: id,
  consumer_id: 'IBM/agbot',
  agreement_creation_time: 1709632800,
  agreement_accepted_time: 1709632801,
  agreement_finalized_time: 0,
  agreement_execution_start_time: started,
  agreement_data_received_time: 0,
  agreement_protocol: 'Basic',
  proposal: 'secret-ish',
  workload_to_run: { url: 'hello', org: 'org1', version: '1.0.0', arch: 'amd64' },
});

describe('version and node list', () => {
  it('version: both versions; the agent down is still exit 0', async () => {
    server.on({ 'GET /status': { status: 200, body: STATUS } });
    expect(await hzn(['version'], { env: env() })).toEqual({
      code: 0,
      stdout: 'Horizon CLI version: 0.1.0\nHorizon Agent version: 0.1.0\n',
      stderr: '',
    });
    const down = await hzn(['version'], { env: { HORIZON_URL: 'http://127.0.0.1:1' } });
    expect(down).toEqual({
      code: 0,
      stdout: 'Horizon CLI version: 0.1.0\nHorizon Agent version: failed to get.\n',
      stderr: '',
    });
  });

  it('node list: GET /node and /status merged in upstream order, times in Go format', async () => {
    server.on({
      'GET /node': { status: 200, body: REGISTERED },
      'GET /status': { status: 200, body: STATUS },
    });
    const result = await hzn(['node', 'ls'], { env: env() });
    expect(result.code).toBe(0);
    expect(server.calls()).toEqual(['GET /node', 'GET /status']);
    expect(Object.keys(JSON.parse(result.stdout))).toEqual([
      'id',
      'organization',
      'pattern',
      'name',
      'nodeType',
      'clusterNamespace',
      'token_last_valid_time',
      'token_valid',
      'ha_group',
      'configstate',
      'configuration',
    ]);
    expect(JSON.parse(result.stdout).token_last_valid_time).toBe('2024-03-05 10:00:00 +0000 UTC');
    expect(result.stdout).toContain('\n  "configstate": {\n    "state": "configured",\n');
  });

  it('node list after an unregistration (GET /node 404): exit 0 and the unconfigured node, as upstream`s hzn', async () => {
    server.on({
      'GET /node': { status: 404, body: { error: 'the node is not registered', input: 'node' } },
      'GET /status': { status: 200, body: STATUS },
    });
    const result = await hzn(['node', 'list'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const shown = JSON.parse(result.stdout);
    expect(shown.id).toBe('');
    expect(shown.organization).toBeNull();
    expect(shown.configstate.state).toBe('unconfigured');
  });

  it('node list without configstate → exit 168 (upstream 424)', async () => {
    server.on({
      'GET /node': { status: 200, body: { id: 'x' } },
      'GET /status': { status: 200, body: STATUS },
    });
    expect(await hzn(['node', 'list'], { env: env() })).toEqual({
      code: 168,
      stdout: '',
      stderr: 'Error: Failed to get proper response from Horizon agent\n',
    });
  });
});

describe('agreement', () => {
  it('list: the active summary; -r the archived; an id the full record', async () => {
    const archived = {
      ...agreement('old', 5),
      agreement_terminated_time: 1709632900,
      terminated_reason: 107,
      terminated_description: 'gone',
    };
    server.on({
      'GET /agreement': {
        status: 200,
        body: { agreements: { active: [agreement('a1', 0)], archived: [archived] } },
      },
    });
    const active = JSON.parse((await hzn(['agreement', 'list'], { env: env() })).stdout);
    expect(active).toEqual([
      {
        name: 'ag a1',
        current_agreement_id: 'a1',
        consumer_id: 'IBM/agbot',
        agreement_creation_time: '2024-03-05 10:00:00 +0000 UTC',
        agreement_accepted_time: '2024-03-05 10:00:01 +0000 UTC',
        agreement_finalized_time: '',
        agreement_execution_start_time: '',
        agreement_data_received_time: '',
        agreement_protocol: 'Basic',
        workload_to_run: { url: 'hello', org: 'org1', version: '1.0.0', arch: 'amd64' },
      },
    ]);
    const old = JSON.parse((await hzn(['agreement', 'list', '-r'], { env: env() })).stdout);
    expect(old[0]).toMatchObject({
      current_agreement_id: 'old',
      terminated_reason: 107,
      terminated_description: 'gone',
    });
    const full = JSON.parse((await hzn(['agreement', 'list', 'a1'], { env: env() })).stdout);
    expect(full.proposal).toBe('secret-ish');
    expect(await hzn(['agreement', 'list', 'nope'], { env: env() })).toMatchObject({
      code: 1,
      stderr: 'Error: agreement id nope not found\n',
    });
  });

  it('cancel: one id, or -a every active one; neither is exit 1', async () => {
    server.on({
      'GET /agreement': {
        status: 200,
        body: { agreements: { active: [agreement('a1', 0), agreement('a2', 0)], archived: [] } },
      },
      'DELETE /agreement/a1': { status: 200 },
      'DELETE /agreement/a2': { status: 200 },
    });
    expect((await hzn(['ag', 'can', 'a2'], { env: env() })).stdout).toBe('Canceling agreement a2 ...\n');
    expect((await hzn(['ag', 'cancel', '-a'], { env: env() })).code).toBe(0);
    expect(server.calls()).toEqual([
      'DELETE /agreement/a2',
      'GET /agreement',
      'DELETE /agreement/a1',
      'DELETE /agreement/a2',
    ]);
    expect(await hzn(['ag', 'cancel'], { env: env() })).toMatchObject({
      code: 1,
      stderr: 'Error: either an agreement ID or -a must be specified.\n',
    });
  });
});

describe('eventlog list', () => {
  const events = [
    {
      record_id: '1',
      timestamp: 1709632800,
      severity: 'info',
      message: 'Start <node> & more',
      event_code: 'c',
      source_type: 'node',
      event_source: {},
    },
    {
      record_id: '2',
      timestamp: 1709632805,
      severity: 'info',
      message: 'Complete',
      event_code: 'd',
      source_type: 'node',
      event_source: {},
    },
  ];

  it('selectors rewritten into the query; the array printed without its brackets, no HTML escaping', async () => {
    server.on({ 'GET /eventlog/all': { status: 200, body: events } });
    const result = await hzn(
      ['ev', 'ls', '-a', '-s', 'severity=info', '-s', 'message~node', '-s', 'timestamp>5'],
      { env: env() },
    );
    expect(server.calls()).toEqual(['GET /eventlog/all?severity=info&message=~node&timestamp=%3E5']);
    expect(result).toEqual({
      code: 0,
      stdout: '  "2024-03-05 10:00:00:   Start <node> & more",\n  "2024-03-05 10:00:05:   Complete"\n',
      stderr: '',
    });
  });

  it('-l prints the records; an empty log prints nothing; a bad selector is exit 1 before any call', async () => {
    server.on({ 'GET /eventlog': { status: 200, body: events.slice(1) } });
    const long = await hzn(['eventlog', 'list', '-l'], { env: env() });
    expect(long.stdout).toBe(
      '  {\n    "record_id": "2",\n    "timestamp": "2024-03-05 10:00:05 +0000 UTC",\n    "severity": "info",\n    "message": "Complete",\n    "event_code": "d",\n    "source_type": "node",\n    "event_source": {}\n  }\n',
    );
    server.on({ 'GET /eventlog': { status: 200, body: [] } });
    expect(await hzn(['eventlog', 'list'], { env: env() })).toEqual({ code: 0, stdout: '', stderr: '' });
    server.reset();
    expect(await hzn(['eventlog', 'list', '-s', 'nonsense'], { env: env() })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: The selection string nonsense is not valid.\n',
    });
    expect(server.requests).toEqual([]);
  });
});

describe('service, policy, userinput', () => {
  it('service list maps definitions.active; 424 means not registered', async () => {
    server.on({
      'GET /service': {
        status: 200,
        body: {
          definitions: {
            active: [{ specRef: 'hello', organization: 'org1', version: '1.0.0', arch: 'amd64', extra: 1 }],
          },
        },
      },
    });
    expect(JSON.parse((await hzn(['service', 'list'], { env: env() })).stdout)).toEqual([
      { url: 'hello', org: 'org1', version: '1.0.0', arch: 'amd64' },
    ]);
    server.on({ 'GET /service': { status: 424, body: {} } });
    expect(await hzn(['serv', 'ls'], { env: env() })).toMatchObject({
      code: 5,
      stderr: "Error: this command can not be run before running 'hzn register'\n",
    });
  });

  it('policy list (extra line, no escaping), update = POST with the note and warning, remove = DELETE after the prompt', async () => {
    const policy = {
      properties: [{ name: 'a', value: '<b>' }],
      constraints: [],
      deployment: { properties: [], constraints: [] },
    };
    server.on({
      'GET /node/policy': { status: 200, body: policy },
      'POST /node/policy': { status: 201, body: {} },
      'DELETE /node/policy': { status: 204 },
    });
    const list = await hzn(['policy', 'list'], { env: env() });
    expect(list.stdout.endsWith('}\n\n')).toBe(true);
    expect(list.stdout).toContain('"value": "<b>"');
    const update = await hzn(['pol', 'up', '-f-'], {
      env: env(),
      stdin: '{"properties":[{"name":"openhorizon.cpu","value":2},{"name":"purpose","value":"$PURPOSE"}]}',
    });
    expect(update.stdout).toBe(
      "Warning: environment variable 'PURPOSE' is referenced in input file, but not defined in the environment.\n" +
        "Note: No properties and constraints are specified under 'deployment' attribute. The top level properties and constraints will be used.\n" +
        'Warning: built-in properties openhorizon.cpu are read-only. The given value will be ignored.\n' +
        'Updating Horizon node policy and re-evaluating all agreements based on this node policy. Existing agreements might be cancelled and re-negotiated.\n',
    );
    expect(JSON.parse(server.requests.at(-1)?.body ?? '')).toEqual({
      properties: [
        { name: 'openhorizon.cpu', value: 2 },
        { name: 'purpose', value: '' },
      ],
    });
    const declined = await hzn(['policy', 'remove'], { env: env(), stdin: 'n\n' });
    expect(declined).toEqual({
      code: 0,
      stdout: 'Are you sure you want to remove the node policy? [y/N]: Exiting.\n',
      stderr: '',
    });
    const eof = await hzn(['policy', 'remove'], { env: env() });
    expect(eof.code).toBe(1);
    expect(await hzn(['policy', 'remove'], { env: env(), stdin: 'y\n' })).toMatchObject({ code: 0 });
    expect(server.calls().filter((c) => c.startsWith('DELETE'))).toEqual(['DELETE /node/policy']);
  });

  it('userinput list/add (POST)/update (PATCH)/remove (DELETE)', async () => {
    const inputs = [
      { serviceOrgid: 'org1', serviceUrl: 'hello', inputs: [{ name: 'HW_WHO', value: 'you' }] },
    ];
    server.on({
      'GET /node/userinput': { status: 200, body: inputs },
      'POST /node/userinput': { status: 201, body: {} },
      'PATCH /node/userinput': { status: 201, body: {} },
      'DELETE /node/userinput': { status: 204 },
    });
    expect((await hzn(['u', 'ls'], { env: env() })).stdout).toBe(`${JSON.stringify(inputs, null, 2)}\n\n`);
    const stdin = JSON.stringify(inputs);
    expect((await hzn(['userinput', 'add', '-f-'], { env: env(), stdin })).stdout).toBe(
      'Horizon node user inputs updated.\n',
    );
    expect((await hzn(['userinput', 'update', '--file-path=-'], { env: env(), stdin })).code).toBe(0);
    expect((await hzn(['userinput', 'rm', '-f'], { env: env() })).stdout).toBe(
      'Horizon user inputs removed.\n',
    );
    expect(server.calls()).toEqual([
      'GET /node/userinput',
      'POST /node/userinput',
      'PATCH /node/userinput',
      'DELETE /node/userinput',
    ]);
    expect(server.requests[1]?.headers['content-type']).toBe('application/json');
  });
});

describe('unregister', () => {
  it('-f -r: DELETE /node?block=true&removeNode=true, then polls until GET /node answers 404', async () => {
    server.on({
      'GET /node': (_req, count) =>
        count === 1
          ? { status: 200, body: REGISTERED }
          : count < 3
            ? { status: 200, body: { id: 'n1', configstate: { state: 'unconfiguring' } } }
            : // 404 once the unregistration has completed (docs/agent.md).
              { status: 404, body: { error: 'the node is not registered', input: 'node' } },
      'DELETE /node': { status: 204 },
    });
    const result = await hzn(['unregister', '-f', '-r'], { env: env() });
    expect(server.calls()).toEqual([
      'GET /node',
      'DELETE /node?block=true&removeNode=true',
      'GET /node',
      'GET /node',
    ]);
    expect(result).toEqual({
      code: 0,
      stdout:
        'Unregistering this node, cancelling all agreements, stopping all workloads, removing this node from the Exchange, and restarting Horizon...\n' +
        'Waiting for agent service to restart and checking the node configuration state...\n' +
        "Horizon node unregistered. You may now run 'hzn register ...' again, if desired.\n",
      stderr: '',
    });
  });
});

describe('eventlog surface', () => {
  const surfaced = {
    record_id: '7',
    message: 'Error starting containers: <x> & y',
    event_code: 'error_start_container',
    hidden: false,
    workload: { url: 'svc', org: 'org1', version: '1.0.0', arch: 'amd64' },
    timestamp: '2024-03-05 10:00:00 +0000 UTC',
  };

  it('prints the agent`s surfaced errors as anax does (no HTML escaping, a blank line after); -l the whole events', async () => {
    server.on({ 'GET /eventlog/surface': { status: 200, body: [surfaced] } });
    const short = await hzn(['eventlog', 'surface'], { env: env() });
    expect(short).toEqual({ code: 0, stdout: `${JSON.stringify([surfaced], null, 2)}\n\n`, stderr: '' });
    server.on({
      'GET /eventlog/all': {
        status: 200,
        body: [
          {
            record_id: '7',
            timestamp: 1709632800,
            severity: 'error',
            message: surfaced.message,
            event_code: 'error_start_container',
            source_type: 'agreement',
            event_source: { agreement_id: 'a1' },
          },
        ],
      },
    });
    const long = await hzn(['ev', 'sf', '-l'], { env: env() });
    expect(server.calls()).toContain('GET /eventlog/all?record_id=7');
    expect(JSON.parse(long.stdout)).toEqual([
      {
        record_id: '7',
        timestamp: '2024-03-05 10:00:00 +0000 UTC',
        severity: 'error',
        message: surfaced.message,
        event_code: 'error_start_container',
        source_type: 'agreement',
        event_source: { agreement_id: 'a1' },
      },
    ]);
    server.on({ 'GET /eventlog/surface': { status: 200, body: [] } });
    expect((await hzn(['eventlog', 'surface'], { env: env() })).stdout).toBe('[]\n\n');
  });
});
