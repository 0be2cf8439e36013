import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDeployment } from '#lib/protocol/deployment-signature';
import type { Credentials } from '#test/support/http';
import { tempDir } from '#test/support/temp-dir';
import { createOrg, createUser, freshId } from '#test/support/world';
import { freePort } from '../../scripts/local/ports.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * The real hzn process (the bundle `npm run build:cli` makes, run by plain Node) against a real
 * Exchange (serverless-offline + DynamoDB Local): key create → signed service publish → list →
 * deployment addpolicy/listpolicy/updatepolicy → secretsmanager add/list/read/remove → removepolicy
 * → service remove; and bad input that leaves the Exchange untouched.
 */
const work = tempDir('hzn-e2e-');
const server = useSharedOffline();
const bundle = join(work, 'hzn.mjs');
const ORG = freshId('hzn-e2e');
let admin: Credentials;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let horizonUrl = 'http://127.0.0.1:9';

function hzn(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bundle, ...args],
      {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: work,
          HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
          HZN_ORG_ID: ORG,
          HZN_EXCHANGE_USER_AUTH: `${admin.user.split('/')[1]}:${admin.secret}`,
          HZN_HTTP_RETRIES: '0',
          HORIZON_URL: horizonUrl,
          ARCH: 'amd64',
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(stdin ?? '');
  });
}

const file = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};

beforeAll(async () => {
  // The same options as `npm run build:cli`, into this file's own directory.
  await build({
    entryPoints: ['cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: bundle,
    banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  await createOrg(fixtures, ORG);
  admin = await createUser(fixtures, ORG, 'admin', { admin: true });
});

describe('hzn against the Exchange', () => {
  it('key create → signed publish → list → deployment policy → secrets → removal', async () => {
    const version = await hzn(['exchange', 'version']);
    expect(version).toEqual({ code: 0, stdout: '2.154.0\n', stderr: '' });

    const key = join(work, 'keys', 'hello.key');
    const cert = join(work, 'keys', 'hello.pem');
    expect(
      (await hzn(['key', 'create', ORG, 'admin@example.com', '-l', '2048', '-k', key, '-K', cert])).code,
    ).toBe(0);

    const service = {
      org: '$HZN_ORG_ID',
      label: 'hello',
      url: 'hello-secret',
      version: '1.0.0',
      arch: '$ARCH',
      sharable: 'multiple',
      userInput: [{ name: 'HW_WHO', label: '', type: 'string', defaultValue: 'World' }],
      deployment: { services: { hello: { image: 'busybox:latest', command: ['sh', '-c', 'sleep 3600'] } } },
    };
    const published = await hzn([
      'exchange',
      'service',
      'publish',
      '-f',
      file('service.json', service),
      '-k',
      key,
      '-K',
      cert,
    ]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('Creating hello-secret_1.0.0_amd64 in the Exchange...\n');
    expect(published.stdout).toContain('Storing hello.pem with the service in the Exchange...\n');

    // The Exchange holds a deployment that verifies with the certificate stored beside it.
    const path = `/v1/orgs/${ORG}/services/hello-secret_1.0.0_amd64`;
    const stored = (await server.http('GET', path, { auth: admin })).body.services[
      `${ORG}/hello-secret_1.0.0_amd64`
    ];
    const storedCert = (await server.http('GET', `${path}/keys/hello.pem`, { auth: admin })).text;
    expect(storedCert).toBe(readFileSync(cert, 'utf8'));
    expect(stored.deployment).toBe(
      '{"services":{"hello":{"command":["sh","-c","sleep 3600"],"image":"busybox:latest"}}}',
    );
    expect(verifyDeployment(stored.deployment, stored.deploymentSignature, storedCert)).toBe(true);

    expect((await hzn(['ex', 'service', 'list'])).stdout).toBe(`[\n  "${ORG}/hello-secret_1.0.0_amd64"\n]\n`);
    const long = JSON.parse((await hzn(['ex', 'serv', 'ls', 'hello-secret_1.0.0_amd64'])).stdout);
    expect(long[`${ORG}/hello-secret_1.0.0_amd64`]).toMatchObject({
      owner: admin.user,
      url: 'hello-secret',
      arch: 'amd64',
    });

    const policy = {
      label: 'hello everywhere',
      service: { name: 'hello-secret', org: ORG, arch: '*', serviceVersions: [{ version: '1.0.0' }] },
      properties: [{ name: 'purpose', value: 'demo' }],
      constraints: ['purpose == demo'],
      secretBinding: [
        { serviceOrgid: ORG, serviceUrl: 'hello-secret', secrets: [{ app_secret: 'greeting' }] },
      ],
    };
    const added = await hzn([
      'exchange',
      'deployment',
      'addpolicy',
      'hello-pol',
      '-f',
      file('policy.json', policy),
    ]);
    expect(added).toEqual({
      code: 0,
      stdout: `Deployment policy: ${ORG}/hello-pol added in the Horizon Exchange\n`,
      stderr: '',
    });
    const again = await hzn(['ex', 'dep', 'addpolicy', 'hello-pol', '-f', join(work, 'policy.json')]);
    expect(again.stdout).toBe(`Deployment policy: ${ORG}/hello-pol updated in the Horizon Exchange\n`);
    expect((await hzn(['ex', 'dep', 'ls'])).stdout).toBe(`[\n  "${ORG}/hello-pol"\n]\n`);
    const listed = JSON.parse((await hzn(['ex', 'dep', 'listpolicy', 'hello-pol'])).stdout);
    expect(listed[`${ORG}/hello-pol`]).toMatchObject({
      label: 'hello everywhere',
      constraints: ['purpose == demo'],
    });

    const secretAdded = await hzn([
      'secretsmanager',
      'secret',
      'add',
      'greeting',
      '--secretKey',
      'text',
      '-d',
      'hello there',
    ]);
    expect(secretAdded).toEqual({
      code: 0,
      stdout: 'Secret "greeting" successfully added to the secrets manager.\n',
      stderr: '',
    });
    expect((await hzn(['sm', 'secret', 'list'])).stdout).toBe('[\n  "greeting"\n]\n');
    expect((await hzn(['sm', 'secret', 'list', 'greeting'])).stdout).toBe('{\n  "exists": true\n}\n');
    expect((await hzn(['sm', 'secret', 'read', 'greeting'])).stdout).toBe(
      '{\n  "key": "text",\n  "value": "hello there"\n}\n',
    );
    const overwrite = await hzn(
      ['sm', 'secret', 'add', 'greeting', '--secretKey', 'text', '-f-', '-O'],
      'new value',
    );
    expect(overwrite.code).toBe(0);
    expect((await hzn(['sm', 'secret', 'read', 'greeting'])).stdout).toContain('"value": "new value"');
    const nodeSecret = await hzn([
      'sm',
      'secret',
      'add',
      'token',
      '-n',
      'node1',
      '--secretKey',
      'k',
      '-d',
      'v',
    ]);
    expect(nodeSecret.stdout).toBe('Secret "node/node1/token" successfully added to the secrets manager.\n');
    expect((await hzn(['sm', 'secret', 'list', '-n', 'node1'])).stdout).toBe('[\n  "token"\n]\n');
    expect((await hzn(['sm', 'secret', 'rm', 'token', '-n', 'node1', '-f'])).code).toBe(0);
    expect((await hzn(['sm', 'secret', 'remove', 'greeting', '-f'])).stdout).toBe(
      'Secret "greeting" successfully deleted from the secrets manager.\n',
    );
    expect(await hzn(['sm', 'secret', 'list', 'greeting'])).toEqual({
      code: 1,
      stdout: '{\n  "exists": false\n}\n',
      stderr: '',
    });

    const updated = await hzn([
      'ex',
      'dep',
      'updatepolicy',
      'hello-pol',
      '-f',
      file('patch.json', { constraints: ['purpose == other'] }),
    ]);
    expect(updated.code).toBe(0);
    const afterPatch = JSON.parse((await hzn(['ex', 'dep', 'ls', 'hello-pol'])).stdout);
    expect(afterPatch[`${ORG}/hello-pol`].constraints).toEqual(['purpose == other']);

    expect((await hzn(['ex', 'dep', 'removepolicy', 'hello-pol', '-f'])).stdout).toContain(
      `Deployment policy ${ORG}/hello-pol removed\n`,
    );
    expect((await hzn(['ex', 'dep', 'ls'])).stdout).toBe('[]\n');
    expect((await hzn(['ex', 'service', 'remove', 'hello-secret_1.0.0_amd64', '-f'])).code).toBe(0);
    expect((await hzn(['ex', 'service', 'list'])).stdout).toBe('[]\n');
  }, 180_000);

  it('bad input: a clear error, upstream exit codes, and nothing written to the Exchange', async () => {
    const malformed = await hzn(['ex', 'service', 'publish', '-f', file('broken.json', '{"url": "x", ')]);
    expect(malformed.code).toBe(3);
    expect(malformed.stderr).toBe(
      `Error: failed to unmarshal JSON input file ${join(work, 'broken.json')}: ${jsonError('{"url": "x", ')}\n`,
    );
    const missing = await hzn(['ex', 'dep', 'addpolicy', 'p', '-f', join(work, 'absent.json')]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^Error: reading .*absent\.json failed: ENOENT/);
    const badFlag = await hzn(['ex', 'service', 'list', '--bogus']);
    expect(badFlag).toEqual({
      code: 1,
      stdout: '',
      stderr: "hzn: error: unknown long flag '--bogus', try --help\n",
    });
    const wrongPassword = await hzn(['ex', 'service', 'list', '-u', 'admin:wrong']);
    expect(wrongPassword.code).toBe(5);
    expect(wrongPassword.stderr.split('\n')).toHaveLength(2);
    const services = await server.http('GET', `/v1/orgs/${ORG}/services`, { auth: admin });
    expect(services.status).toBe(404);
    const policies = await server.http('GET', `/v1/orgs/${ORG}/business/policies`, { auth: admin });
    expect(policies.status).toBe(404);
  }, 180_000);
});

describe('hzn against a real agent and the Exchange', () => {
  let agent: ChildProcess | undefined;
  let agentLog = '';
  beforeAll(async () => {
    const port = await freePort();
    horizonUrl = `http://127.0.0.1:${port}`;
    agent = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
        HZN_AGENT_PORT: String(port),
        HZN_AGENT_DATA_DIR: mkdtempSync(join(work, 'agent-')),
        HZN_AGENT_POLL_SECONDS: '1',
        HZN_AGENT_LOG_LEVEL: 'warn',
      },
    });
    for (const stream of [agent.stdout, agent.stderr])
      stream?.on('data', (c: Buffer) => (agentLog += c.toString()));
    for (let i = 0; i < 300; i += 1) {
      const up = await fetch(`${horizonUrl}/status`).then(
        () => true,
        () => false,
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the agent did not start: ${agentLog}`);
  });
  afterAll(() => {
    // Only while it runs: a dead agent's pid may belong to another process group by now.
    if (agent?.pid && agent.exitCode === null && agent.signalCode === null)
      process.kill(-agent.pid, 'SIGTERM');
  });

  it('register --policy → node list → eventlog → policy and userinput → unregister -f -r', async () => {
    const policyFile = file('node-policy.json', {
      properties: [{ name: 'purpose', value: 'demo' }],
      constraints: [],
    });
    const registered = await hzn([
      'register',
      '-n',
      'node1:node1-token-e2e',
      '--policy',
      policyFile,
      '-m',
      'my-node',
    ]);
    expect(registered.stderr, agentLog).toBe('');
    expect(registered.code).toBe(0);
    expect(registered.stdout).toContain(
      `Node ${ORG}/node1 does not exist in the Exchange with the specified token, creating/updating it...\n`,
    );
    expect(registered.stdout.trim().split('\n').at(-1)).toBe(
      "Horizon node is registered. Workload agreement negotiation should begin shortly. Run 'hzn agreement list' to view.",
    );
    const exchangeNode = await server.http('GET', `/v1/orgs/${ORG}/nodes/node1`, { auth: admin });
    expect(exchangeNode.body.nodes[`${ORG}/node1`].name).toBe('my-node');
    const exchangePolicy = await server.http('GET', `/v1/orgs/${ORG}/nodes/node1/policy`, { auth: admin });
    expect(exchangePolicy.body.properties).toContainEqual({ name: 'purpose', value: 'demo' });

    const node = JSON.parse((await hzn(['node', 'list'])).stdout);
    expect(node).toMatchObject({
      id: 'node1',
      organization: ORG,
      name: 'my-node',
      configstate: { state: 'configured' },
    });
    const events = await hzn(['eventlog', 'list', '-s', 'event_code=start_node_configuration_registration']);
    expect(events.stdout).toMatch(
      /^ {2}"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d: {3}Start node configuration\/registration for node node1\."\n$/,
    );
    expect(await hzn(['agreement', 'list'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    const again = await hzn(['register', '-n', 'node1:node1-token-e2e']);
    expect(again.code).toBe(5);

    // The Exchange checks a node's userInput against the services the node may see.
    const service = {
      label: 'hello-input',
      url: 'hello-input',
      version: '1.0.0',
      arch: 'amd64',
      sharable: 'multiple',
    };
    expect(
      (await server.http('POST', `/v1/orgs/${ORG}/services`, { auth: admin, body: service })).status,
    ).toBe(201);
    const inputs = [
      { serviceOrgid: ORG, serviceUrl: 'hello-input', inputs: [{ name: 'HW_WHO', value: 'e2e' }] },
    ];
    expect((await hzn(['userinput', 'add', '-f', file('inputs.json', inputs)])).code).toBe(0);
    expect(JSON.parse((await hzn(['userinput', 'list'])).stdout)).toMatchObject(inputs);

    const unregistered = await hzn(['unregister', '-f', '-r']);
    expect(unregistered.stderr, agentLog).toBe('');
    expect(unregistered.code).toBe(0);
    expect(unregistered.stdout.trim().split('\n').at(-1)).toBe(
      "Horizon node unregistered. You may now run 'hzn register ...' again, if desired.",
    );
    expect((await server.http('GET', `/v1/orgs/${ORG}/nodes/node1`, { auth: admin })).status).toBe(404);
  }, 180_000);
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}
