import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordingServer, startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';

/** Argument parsing as kingpin does it (docs/hzn-behaviour.md#argument-parsing): messages, exit codes, aliases, flag forms. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const agentEnv = () => ({ HORIZON_URL: server.url });

describe('usage errors', () => {
  it.each([
    [['agreement', 'list', '-a'], "hzn: error: unknown short flag '-a', try --help\n"],
    [['node', 'list', '--foo'], "hzn: error: unknown long flag '--foo', try --help\n"],
    [['exchange', 'service', 'publish'], 'hzn: error: required flag --json-file not provided, try --help\n'],
    [['exchange'], "hzn: error: must select a subcommand of 'exchange | ex', try --help\n"],
    [['exchange', 'deployment', 'bogus'], 'hzn: error: expected command but got "bogus", try --help\n'],
    [['bogus'], 'hzn: error: expected command but got "bogus", try --help\n'],
    [['exchange', 'service', 'remove'], "hzn: error: required argument 'service' not provided, try --help\n"],
    [['policy', 'update', '-f'], "hzn: error: expected argument for flag '--input-file', try --help\n"],
    [['node', 'list', 'extra'], "hzn: error: unexpected argument 'extra', try --help\n"],
    [['exchange', 'agbot', 'addpolicy'], 'hzn: error: expected command but got "addpolicy", try --help\n'],
  ])('%j → exit 1 with kingpin wording, nothing sent', async (argv, message) => {
    const result = await hzn(argv, { env: agentEnv() });
    expect(result).toEqual({ code: 1, stdout: '', stderr: message });
    expect(server.requests).toEqual([]);
  });

  it('`hzn` alone and -h print usage on stderr with exit 0', async () => {
    for (const argv of [[], ['-h'], ['exchange', 'service', 'publish', '--help']]) {
      const result = await hzn(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^Usage: hzn/);
    }
  });

  it('a path flag naming no file is kingpin\'s "does not exist", before any request', async () => {
    const result = await hzn(['exchange', 'service', 'publish', '-f', '/dev/null', '-k', '/no/such.key'], {
      env: { HZN_EXCHANGE_URL: `${server.url}/v1`, HZN_ORG_ID: 'o', HZN_EXCHANGE_USER_AUTH: 'u:p' },
    });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: "hzn: error: path '/no/such.key' does not exist, try --help\n",
    });
    expect(server.requests).toEqual([]);
  });
});

describe('flag and command forms', () => {
  it('aliases reach the same command: ag ls, agreement list', async () => {
    server.on({ 'GET /agreement': { status: 200, body: { agreements: { active: [], archived: [] } } } });
    for (const argv of [
      ['ag', 'ls'],
      ['agreement', 'list'],
    ]) {
      const result = await hzn(argv, { env: agentEnv() });
      expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    }
    expect(server.calls()).toEqual(['GET /agreement', 'GET /agreement']);
  });

  it('parent flags after the subcommand, --flag=value and -fVALUE', async () => {
    server.on({
      'GET /v1/admin/version': { status: 200, body: '2.154.0' },
      'GET /v1/orgs/other/services': { status: 200, body: { services: { 'other/s_1_amd64': {} } } },
    });
    const env = { HZN_EXCHANGE_URL: `${server.url}/v1`, HZN_ORG_ID: 'mine', HZN_EXCHANGE_USER_AUTH: 'me:pw' };
    for (const argv of [
      ['exchange', 'service', 'list', '-o', 'other'],
      ['ex', 'serv', 'ls', '--org=other'],
      ['ex', '-oother', 'serv', 'ls'],
    ]) {
      const result = await hzn(argv, { env });
      expect(result).toEqual({ code: 0, stdout: '[\n  "other/s_1_amd64"\n]\n', stderr: '' });
    }
    // The credentials keep the env org; the path uses -o's.
    const auth = server.requests.at(-1)?.headers.authorization as string;
    expect(Buffer.from(auth.replace('Basic ', ''), 'base64').toString()).toBe('other/me:pw');
  });

  it('combined short flags (-fr) and -f- for stdin', async () => {
    server.on({
      'GET /node': {
        status: 200,
        body: { id: 'n', organization: null, configstate: { state: 'unconfigured' } },
      },
      'POST /node/policy': { status: 201, body: {} },
    });
    const unreg = await hzn(['unregister', '-fr'], { env: agentEnv() });
    expect(unreg).toEqual({ code: 0, stdout: 'The node is not registered.\n', stderr: '' });
    const update = await hzn(['policy', 'update', '-f-'], {
      env: agentEnv(),
      stdin: '{"properties":[{"name":"a","value":1}]}',
    });
    expect(update.code).toBe(0);
    expect(server.requests.at(-1)?.body).toBe('{"properties":[{"name":"a","value":1}]}');
  });

  it('--dry-run sends GETs but no writes', async () => {
    server.on({
      'GET /agreement': {
        status: 200,
        body: { agreements: { active: [{ current_agreement_id: 'a1' }], archived: [] } },
      },
    });
    const result = await hzn(['--dry-run', 'agreement', 'cancel', '-a'], { env: agentEnv() });
    expect(result).toEqual({ code: 0, stdout: 'Canceling agreement a1 ...\n', stderr: '' });
    expect(server.calls()).toEqual(['GET /agreement']);
  });

  it('-v writes the calls on stderr', async () => {
    server.on({ 'GET /agreement': { status: 200, body: { agreements: { active: [], archived: [] } } } });
    const result = await hzn(['agreement', 'list', '-v'], { env: agentEnv() });
    expect(result.stderr).toBe(`[verbose] GET ${server.url}/agreement\n[verbose] HTTP code: 200\n`);
  });
});
