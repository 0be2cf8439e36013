import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { goTime } from './output.ts';
import { type RecordingServer, startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';

/** `hzn agbot agreement list` and `hzn agbot policy list` (docs/hzn.md "hzn agbot"), against a recording server. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.on({ 'GET /v1/admin/version': { status: 200, body: '2.154.0' } });
});

const AGREEMENT = {
  current_agreement_id: 'ag1',
  org: 'acme',
  device_id: 'acme/n1',
  agreement_protocol: 'Basic',
  agreement_inception_time: 1_700_000_000,
  agreement_creation_time: 1_700_000_001,
  agreement_finalized_time: 0,
  agreement_timeout: 1_700_000_300,
  data_verification_time: 0,
  data_notification_sent: 0,
  policy_name: 'acme/pol',
  pattern: '',
  archived: false,
  terminated_reason: 201,
  terminated_description: 'agreement bot never received a reply',
  state: 'Formed Proposal',
};
const STATUS = {
  org: 'acme',
  name: 'pol',
  matched: 1,
  proposed: 0,
  agreed: 1,
  running: 0,
  skipped: [{ node: 'acme/n2', reason: 'policy mismatch', since: '2025-01-01T00:00:00.000Z' }],
};
const standalone = () => ({ HZN_AGBOT_URL: `${server.url}/` });
const exchange = (more: Record<string, string> = {}) => ({
  HZN_EXCHANGE_URL: `${server.url}/v1`,
  HZN_EXCHANGE_USER_AUTH: 'acme/alice:pw',
  ...more,
});

describe('hzn agbot agreement list', () => {
  it("prints upstream's summary of the standalone agbot's active agreements", async () => {
    server.on({
      'GET /agreement': { status: 200, body: { agreements: { active: [AGREEMENT], archived: [] } } },
    });
    const run = await hzn(['agbot', 'agreement', 'list'], { env: standalone() });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        current_agreement_id: 'ag1',
        org: 'acme',
        edge_node_id: 'acme/n1',
        agreement_protocol: 'Basic',
        agreement_inception_time: goTime(1_700_000_000),
        agreement_creation_time: goTime(1_700_000_001),
        agreement_finalized_time: '',
        data_verification_time: '',
        data_notification_sent: '',
        policy_name: 'acme/pol',
        pattern: '',
      },
    ]);
    expect(run.stdout).toMatch(/^\[\n {2}\{\n {4}"current_agreement_id"/);
  });

  it('adds the timeout and the termination to archived ones (-r), read through the Exchange', async () => {
    server.on({
      'GET /v1/orgs/acme/agbotstatus/agreements?archived=true': {
        status: 200,
        body: { agreements: { archived: [{ ...AGREEMENT, archived: true }] } },
      },
    });
    const run = await hzn(['agbot', 'ag', 'ls', '-r'], { env: exchange() });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[0]).toMatchObject({
      agreement_timeout: goTime(1_700_000_300),
      terminated_reason: 201,
      terminated_description: 'agreement bot never received a reply',
    });
    const call = server.requests.find((r) => r.url.includes('agbotstatus'));
    expect(call?.headers.authorization).toBe(`Basic ${Buffer.from('acme/alice:pw').toString('base64')}`);
  });

  it('prints one whole agreement by id; an unknown id is exit 1', async () => {
    server.on({
      'GET /agreement': { status: 200, body: { agreements: { active: [AGREEMENT], archived: [] } } },
    });
    const one = await hzn(['agbot', 'agreement', 'list', 'ag1'], { env: standalone() });
    expect(JSON.parse(one.stdout)).toEqual(AGREEMENT);
    const none = await hzn(['agbot', 'agreement', 'list', 'nope'], { env: standalone() });
    expect(none).toMatchObject({ code: 1, stderr: 'Error: agreement id nope not found\n' });
  });

  it('needs user credentials without HZN_AGBOT_URL', async () => {
    const run = await hzn(['agbot', 'agreement', 'list'], { env: { HZN_EXCHANGE_URL: `${server.url}/v1` } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('-u flag or HZN_EXCHANGE_USER_AUTH');
  });
});

describe('hzn agbot policy list', () => {
  it("prints upstream's org → names map, of every org or of one", async () => {
    server.on({
      'GET /policy': { status: 200, body: { acme: ['pol'], beta: ['x'] } },
      'GET /policy/acme': { status: 200, body: { acme: ['pol'] } },
    });
    const all = await hzn(['agbot', 'policy', 'list'], { env: standalone() });
    expect(JSON.parse(all.stdout)).toEqual({ acme: ['pol'], beta: ['x'] });
    const one = await hzn(['agbot', 'pol', 'ls', 'acme'], { env: standalone() });
    expect(JSON.parse(one.stdout)).toEqual({ acme: ['pol'] });
  });

  it('prints one policy with its counts and skip reasons, as org name or org/name', async () => {
    server.on({ 'GET /policy/acme/pol': { status: 200, body: STATUS } });
    for (const args of [['acme', 'pol'], ['acme/pol']]) {
      const run = await hzn(['agbot', 'policy', 'list', ...args], { env: standalone() });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(STATUS);
    }
  });

  it("prints upstream's error line for a policy not hosted", async () => {
    server.on({ 'GET /policy/acme/nope': { status: 404, body: { error: 'no' } } });
    const run = await hzn(['agbot', 'policy', 'list', 'acme', 'nope'], { env: standalone() });
    expect(run.stdout).toBe(
      "Error: Either the organization 'acme' does not exist or the policy 'nope' is not hosted by this agbot.\n",
    );
  });

  it('reads the in-stack agbot through the Exchange: the org from -o, HZN_ORG_ID or the credentials', async () => {
    server.on({
      'GET /v1/orgs/acme/agbotstatus/policies': { status: 200, body: { acme: ['pol'] } },
      'GET /v1/orgs/beta/agbotstatus/policies': { status: 200, body: { beta: [] } },
      'GET /v1/orgs/acme/agbotstatus/policies/pol': { status: 200, body: STATUS },
    });
    expect(JSON.parse((await hzn(['agbot', 'policy', 'list'], { env: exchange() })).stdout)).toEqual({
      acme: ['pol'],
    });
    const other = await hzn(['agbot', 'policy', 'list', '-o', 'beta'], { env: exchange() });
    expect(JSON.parse(other.stdout)).toEqual({ beta: [] });
    const one = await hzn(['agbot', 'policy', 'list', 'acme/pol', '-u', 'acme/alice:pw'], {
      env: { HZN_EXCHANGE_URL: `${server.url}/v1` },
    });
    expect(JSON.parse(one.stdout)).toEqual(STATUS);
  });

  it('says why an unreachable standalone agbot failed (exit 5)', async () => {
    const run = await hzn(['agbot', 'policy', 'list'], { env: { HZN_AGBOT_URL: 'http://127.0.0.1:1' } });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('HZN_AGBOT_URL (http://127.0.0.1:1)');
  });
});
