import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyDeployment } from '#lib/protocol/deployment-signature';
import { type RecordingServer, type Route, startRecordingServer } from './test-support/recording-server.ts';
import { hzn } from './test-support/run-hzn.ts';
import { tempDir } from './test-support/temp-dir.ts';

/** Each `hzn exchange ...` command's REST calls (docs/hzn-behaviour.md#keys-and-publishing, #exchange-commands), against a recording server. */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.on({ 'GET /v1/admin/version': { status: 200, body: '2.154.0' } });
});

const dir = tempDir('hzn-exchange-');
const env = (more: Record<string, string> = {}) => ({
  HZN_EXCHANGE_URL: `${server.url}/v1/`,
  HZN_ORG_ID: 'org1',
  HZN_EXCHANGE_USER_AUTH: 'admin:pw',
  ...more,
});
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const bodyOf = (call: string) => {
  const req = server.requests.find((r) => `${r.method} ${r.url}` === call);
  if (!req) throw new Error(`no ${call} in ${server.calls().join(', ')}`);
  return req.body;
};
const writes = () => server.calls().filter((c) => !c.startsWith('GET'));
const on = (routes: Record<string, Route>) => server.on(routes);

const SERVICE = {
  org: '$HZN_ORG_ID',
  label: 'hello',
  url: 'hello',
  version: '1.0.0',
  arch: '$ARCH',
  sharable: 'multiple',
  deployment: { services: { hello: { image: 'busybox:1.36', environment: ['A=<b>'] } } },
};

describe('exchange service', () => {
  it('publish signs the deployment (RSA-PSS) and stores the public key; the signature verifies', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = file('svc.key', privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    on({
      'GET /v1/orgs/org1/services/hello_1.0.0_amd64': { status: 404, body: { services: {} } },
      'POST /v1/orgs/org1/services': { status: 201, body: { code: 'ok', msg: 'created' } },
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64/keys/default.public.key': { status: 201, body: {} },
    });
    const result = await hzn(
      ['exchange', 'service', 'publish', '-f', file('svc.json', SERVICE), '-k', keyFile],
      {
        env: env({ ARCH: 'amd64' }),
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(writes()).toEqual([
      'POST /v1/orgs/org1/services',
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64/keys/default.public.key',
    ]);
    const body = JSON.parse(bodyOf('POST /v1/orgs/org1/services'));
    expect(body).toMatchObject({
      url: 'hello',
      arch: 'amd64',
      public: false,
      requiredServices: null,
      userInput: null,
      matchHardware: null,
    });
    expect(body.deployment).toBe(
      '{"services":{"hello":{"environment":["A=\\u003cb\\u003e"],"image":"busybox:1.36"}}}',
    );
    const pem = bodyOf('PUT /v1/orgs/org1/services/hello_1.0.0_amd64/keys/default.public.key');
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(verifyDeployment(body.deployment, body.deploymentSignature, pem)).toBe(true);
    const keyPut = server.requests.find((r) => r.url.endsWith('/keys/default.public.key'));
    expect(keyPut?.headers['content-type']).not.toBe('application/json');
    expect(result.stdout).toContain('push your docker images to the registry:\n  docker push busybox:1.36\n');
    expect(result.stdout).toContain('does not push or pull images');
  });

  it('publish: a pre-signed string deployment passes verbatim (no key stored); --public overrides; no deployment sends ""', async () => {
    on({
      'GET /v1/orgs/org1/services/hello_1.0.0_amd64': { status: 404, body: {} },
      'POST /v1/orgs/org1/services': { status: 201, body: {} },
    });
    const signed = { ...SERVICE, arch: 'amd64', deployment: '{"services":{}}', deploymentSignature: 'c2ln' };
    expect(
      (
        await hzn(['ex', 'serv', 'pub', '-f', file('signed.json', signed), '--public', 'true'], {
          env: env(),
        })
      ).code,
    ).toBe(0);
    expect(JSON.parse(bodyOf('POST /v1/orgs/org1/services'))).toMatchObject({
      public: true,
      deployment: '{"services":{}}',
      deploymentSignature: 'c2ln',
    });
    expect(writes()).toEqual(['POST /v1/orgs/org1/services']);
    const unsigned = await hzn(
      ['ex', 'serv', 'pub', '-f', file('unsigned.json', { ...signed, deploymentSignature: '' })],
      { env: env() },
    );
    expect(unsigned.code).toBe(3);
    server.reset();
    on({
      'GET /v1/admin/version': { status: 200, body: '2.154.0' },
      'GET /v1/orgs/org1/services/hello_1.0.0_amd64': { status: 404, body: {} },
      'POST /v1/orgs/org1/services': { status: 201, body: {} },
    });
    const none = { ...SERVICE, arch: 'amd64', deployment: null };
    expect(
      (await hzn(['ex', 'serv', 'pub', '-f', file('no-deployment.json', none)], { env: env() })).code,
    ).toBe(0);
    expect(JSON.parse(bodyOf('POST /v1/orgs/org1/services'))).toMatchObject({
      deployment: '',
      deploymentSignature: '',
    });
  });

  it('publish of an existing service prompts, then PUTs (-O skips the prompt)', async () => {
    on({
      'GET /v1/orgs/org1/services/hello_1.0.0_amd64': { status: 200, body: { services: {} } },
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64': { status: 201, body: {} },
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64/keys/default.public.key': { status: 201, body: {} },
    });
    const path = file('svc2.json', { ...SERVICE, arch: 'amd64' });
    const declined = await hzn(['ex', 'serv', 'pub', '-f', path], { env: env(), stdin: 'n\n' });
    expect(declined.code).toBe(0);
    expect(declined.stdout).toContain(
      'Service org1/hello_1.0.0_amd64 exists in the Exchange, do you want to overwrite it? [y/N]: Exiting.\n',
    );
    expect(writes()).toEqual([]);
    const forced = await hzn(['ex', 'serv', 'pub', '-f', path, '-O'], { env: env() });
    expect(forced.code).toBe(0);
    expect(writes()).toEqual([
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64',
      'PUT /v1/orgs/org1/services/hello_1.0.0_amd64/keys/default.public.key',
    ]);
  });

  it('publish: a missing file is exit 4, malformed JSON exit 3, a bad deployment exit 1; nothing written', async () => {
    const missing = await hzn(['ex', 'serv', 'pub', '-f', join(dir, 'none.json')], { env: env() });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^Error: reading .*none\.json failed: ENOENT/);
    const malformed = await hzn(['ex', 'serv', 'pub', '-f', file('bad.json', '{"url": "x",')], {
      env: env(),
    });
    expect(malformed.code).toBe(3);
    expect(malformed.stderr).toContain(`failed to unmarshal JSON input file ${join(dir, 'bad.json')}`);
    const noImage = await hzn(
      [
        'ex',
        'serv',
        'pub',
        '-f',
        file('noimage.json', { ...SERVICE, arch: 'amd64', deployment: { services: { a: {} } } }),
      ],
      {
        env: env(),
      },
    );
    expect(noImage.code).toBe(1);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('list: names, -l / a name the records by org/id; a missing name is exit 8; remove DELETEs', async () => {
    const record = {
      owner: 'org1/admin',
      label: 'a',
      url: 'a',
      clusterDeployment: 'x'.repeat(150),
      extra: 1,
    };
    // With several services the cluster deployment is cut at 100 characters.
    const services = { 'org1/a_1_amd64': record, 'org1/b_1_amd64': { ...record, label: 'b' } };
    on({
      'GET /v1/orgs/org1/services': { status: 200, body: { services } },
      'GET /v1/orgs/org1/services/nope': { status: 404, body: { services: {} } },
      'DELETE /v1/orgs/org1/services/a_1_amd64': { status: 204 },
      'DELETE /v1/orgs/org1/services/gone': { status: 404, body: {} },
    });
    expect((await hzn(['ex', 'service', 'list'], { env: env() })).stdout).toBe(
      '[\n  "org1/a_1_amd64",\n  "org1/b_1_amd64"\n]\n',
    );
    const long = JSON.parse((await hzn(['ex', 'service', 'list', '-l'], { env: env() })).stdout);
    expect(Object.keys(long['org1/a_1_amd64'])[0]).toBe('owner');
    expect(long['org1/a_1_amd64'].extra).toBeUndefined();
    expect(long['org1/a_1_amd64'].clusterDeployment).toBe(`${'x'.repeat(100)}...`);
    expect(await hzn(['ex', 'service', 'list', 'nope'], { env: env() })).toMatchObject({
      code: 8,
      stderr: "Error: service 'nope' not found in org org1\n",
    });
    expect((await hzn(['ex', 'service', 'rm', 'a_1_amd64', '-f'], { env: env() })).code).toBe(0);
    expect((await hzn(['ex', 'service', 'rm', 'gone', '-f'], { env: env() })).code).toBe(8);
  });
});

describe('exchange deployment', () => {
  const POLICY = {
    label: 'p',
    owner: 'ignored',
    unknownField: 1,
    service: { name: 'hello', org: 'org1', arch: '*', serviceVersions: [{ version: '1.0.0' }] },
    properties: [{ name: 'p', value: true }],
    constraints: ['purpose == test'],
  };

  it('addpolicy POSTs upstream fields only; 403 → PUT; no constraints needs --no-constraints', async () => {
    on({ 'POST /v1/orgs/org1/business/policies/pol': { status: 201, body: {} } });
    const added = await hzn(['ex', 'dep', 'addpolicy', 'pol', '-f', file('pol.json', POLICY)], {
      env: env(),
    });
    expect(added).toEqual({
      code: 0,
      stdout: 'Deployment policy: org1/pol added in the Horizon Exchange\n',
      stderr: '',
    });
    expect(JSON.parse(bodyOf('POST /v1/orgs/org1/business/policies/pol'))).toEqual({
      label: 'p',
      description: '',
      service: {
        name: 'hello',
        org: 'org1',
        arch: '*',
        serviceVersions: [{ version: '1.0.0', priority: {}, upgradePolicy: {} }],
        nodeHealth: {},
      },
      properties: [{ name: 'p', value: true }],
      constraints: ['purpose == test'],
    });
    server.reset();
    on({
      'GET /v1/admin/version': { status: 200, body: '2.154.0' },
      'POST /v1/orgs/org1/business/policies/pol': {
        status: 403,
        body: { code: 'already-exists', msg: 'exists' },
      },
      'PUT /v1/orgs/org1/business/policies/pol': { status: 201, body: {} },
    });
    const updated = await hzn(['ex', 'deployment', 'addp', 'pol', '-f', file('pol.json', POLICY)], {
      env: env(),
    });
    expect(updated.stdout).toBe('Deployment policy: org1/pol updated in the Horizon Exchange\n');
    expect(writes()).toEqual([
      'POST /v1/orgs/org1/business/policies/pol',
      'PUT /v1/orgs/org1/business/policies/pol',
    ]);
    server.reset();
    const unconstrained = file('open.json', { ...POLICY, constraints: [] });
    const refused = await hzn(['ex', 'dep', 'addpolicy', 'pol', '-f', unconstrained], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Please specify --no-constraints');
    expect(server.requests).toEqual([]);
    on({
      'GET /v1/admin/version': { status: 200, body: '2.154.0' },
      'POST /v1/orgs/org1/business/policies/pol': { status: 201, body: {} },
    });
    expect(
      (await hzn(['ex', 'dep', 'addpolicy', 'pol', '-f', unconstrained, '--no-constraints'], { env: env() }))
        .code,
    ).toBe(0);
  });

  it('addpolicy refuses a bad constraint or an empty service name (exit 1), nothing sent', async () => {
    for (const bad of [
      { ...POLICY, constraints: ['purpose =='] },
      { ...POLICY, service: { ...POLICY.service, name: '' } },
      { ...POLICY, service: { ...POLICY.service, serviceVersions: [] } },
    ]) {
      const result = await hzn(['ex', 'dep', 'addpolicy', 'pol', '-f', file('bad-pol.json', bad)], {
        env: env(),
      });
      expect(result.code).toBe(1);
    }
    expect(server.requests).toEqual([]);
  });

  it('listpolicy (names / records with an extra line), updatepolicy PATCHes one attribute, removepolicy 404 is exit 0', async () => {
    const policies = {
      'org1/pol': { owner: 'org1/admin', label: 'p', service: {}, constraints: ['a <b'], lastUpdated: 't' },
    };
    on({
      'GET /v1/orgs/org1/business/policies': {
        status: 200,
        body: { businessPolicy: policies, lastIndex: 0 },
      },
      'GET /v1/orgs/org1/business/policies/pol': {
        status: 200,
        body: { businessPolicy: policies, lastIndex: 0 },
      },
      'PATCH /v1/orgs/org1/business/policies/pol': { status: 201, body: {} },
      'DELETE /v1/orgs/org1/business/policies/pol': { status: 204 },
    });
    expect((await hzn(['ex', 'dep', 'ls'], { env: env() })).stdout).toBe('[\n  "org1/pol"\n]\n');
    const one = await hzn(['ex', 'dep', 'listpolicy', 'pol'], { env: env() });
    expect(one.stdout.endsWith('}\n\n')).toBe(true);
    expect(one.stdout).toContain('"a <b"');
    const update = await hzn(
      ['ex', 'dep', 'upp', 'pol', '-f', file('patch.json', { label: 'x', constraints: ['a == b'] })],
      { env: env() },
    );
    expect(update.code).toBe(0);
    expect(JSON.parse(bodyOf('PATCH /v1/orgs/org1/business/policies/pol'))).toEqual({
      constraints: ['a == b'],
    });
    expect((await hzn(['ex', 'dep', 'rmp', 'pol', '-f'], { env: env() })).stdout).toBe(
      'Removing deployment policy org1/pol and re-evaluating all agreements. Existing agreements might be cancelled and re-negotiated.\nDeployment policy org1/pol removed\n',
    );
    server.routes.set('DELETE /v1/orgs/org1/business/policies/pol', { status: 404, body: {} });
    const gone = await hzn(['ex', 'dep', 'removepolicy', 'pol', '-f'], { env: env() });
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('Policy org1/pol not found in the Horizon Exchange\n');
  });
});

describe('exchange pattern', () => {
  it('publish POSTs /patterns/{name} (PUT when it exists); list and remove', async () => {
    on({
      'GET /v1/orgs/org1/patterns/pat': { status: 404, body: {} },
      'POST /v1/orgs/org1/patterns/pat': { status: 201, body: {} },
      'GET /v1/orgs/org1/patterns': {
        status: 200,
        body: { patterns: { 'org1/pat': { label: 'x', services: [] } } },
      },
      'DELETE /v1/orgs/org1/patterns/pat': { status: 204 },
    });
    const pattern = {
      label: 'x',
      services: [
        {
          serviceUrl: 'hello',
          serviceOrgid: 'org1',
          serviceArch: 'amd64',
          serviceVersions: [{ version: '1.0.0' }],
        },
      ],
    };
    const result = await hzn(['ex', 'pattern', 'publish', '-f', file('pat.json', pattern)], { env: env() });
    expect(result).toEqual({ code: 0, stdout: 'Creating pat in the Exchange...\n', stderr: '' });
    expect(JSON.parse(bodyOf('POST /v1/orgs/org1/patterns/pat'))).toEqual({
      label: 'x',
      description: '',
      public: false,
      services: pattern.services,
      agreementProtocols: [{ name: 'Basic' }],
    });
    expect((await hzn(['ex', 'pat', 'ls'], { env: env() })).stdout).toBe('[\n  "org1/pat"\n]\n');
    const long = JSON.parse((await hzn(['ex', 'pat', 'ls', '-l'], { env: env() })).stdout);
    expect(Object.keys(long['org1/pat'])).toEqual([
      'label',
      'description',
      'public',
      'services',
      'agreementProtocols',
    ]);
    expect((await hzn(['ex', 'pat', 'rm', 'pat', '-f'], { env: env() })).code).toBe(0);
  });
});

describe('exchange node, org, user, agbot, status, version', () => {
  it('node liststatus prints the status in anax`s field order; none → exit 8', async () => {
    const service = {
      configState: 'active',
      containerStatus: [{ name: '/a1-web', image: 'img:1', created: 5, state: 'running' }],
      arch: 'amd64',
      version: '1.0.0',
      orgid: 'org1',
      serviceUrl: 'web',
      agreementId: 'a1',
    };
    on({
      'GET /v1/orgs/org1/nodes/n1/status': {
        status: 200,
        body: {
          lastUpdated: 't',
          runningServices: '|org1/web_1.0.0_amd64|',
          services: [service],
          connectivity: {},
        },
      },
      'GET /v1/orgs/org1/nodes/n2/status': { status: 404, body: { code: 'not-found', msg: 'not found' } },
    });
    const result = await hzn(['ex', 'node', 'lst', 'n1'], { env: env() });
    expect(result.stdout).toBe(
      `${JSON.stringify(
        {
          services: [
            {
              agreementId: 'a1',
              serviceUrl: 'web',
              orgid: 'org1',
              version: '1.0.0',
              arch: 'amd64',
              containerStatus: service.containerStatus,
              configState: 'active',
            },
          ],
          runningServices: '|org1/web_1.0.0_amd64|',
          lastUpdated: 't',
        },
        null,
        2,
      )}\n`,
    );
    expect(await hzn(['ex', 'node', 'liststatus', 'n2'], { env: env() })).toMatchObject({
      code: 8,
      stderr: "Error: node status not found for node 'org1/n2'.\n",
    });
  });

  it('node list follows `next` (our Exchange answers a large org in parts) and stops without it', async () => {
    const node = (name: string) => ({ name, owner: 'org1/u', arch: 'amd64', nodeType: 'device' });
    on({
      'GET /v1/orgs/org1/nodes': {
        status: 200,
        body: { nodes: { 'org1/a': node('a') }, lastIndex: 0, next: 'a' },
      },
      'GET /v1/orgs/org1/nodes?after=a': {
        status: 200,
        body: { nodes: { 'org1/b': node('b') }, lastIndex: 0, next: 'b' },
      },
      'GET /v1/orgs/org1/nodes?after=b': { status: 200, body: { nodes: {}, lastIndex: 0 } },
    });
    const listed = await hzn(['ex', 'node', 'list'], { env: env() });
    expect(JSON.parse(listed.stdout)).toEqual(['org1/a', 'org1/b']);
    expect(server.requests.map((r) => r.url).filter((url) => url.includes('/nodes'))).toEqual([
      '/v1/orgs/org1/nodes',
      '/v1/orgs/org1/nodes?after=a',
      '/v1/orgs/org1/nodes?after=b',
    ]);
  });

  it('node listerrors prints the surfaced errors ([] when none); a missing node → exit 8', async () => {
    const error = {
      record_id: '3',
      message: 'Error <a>',
      event_code: 'error_image_load',
      hidden: false,
      workload: { url: 'web', org: 'org1', version: '1.0.0', arch: 'amd64' },
      timestamp: '2024-03-05 10:00:00 +0000 UTC',
    };
    on({
      'GET /v1/orgs/org1/nodes/n1': { status: 200, body: { nodes: {} } },
      'GET /v1/orgs/org1/nodes/n1/errors': { status: 200, body: { errors: [error], lastUpdated: 't' } },
      'GET /v1/orgs/org1/nodes/n3': { status: 200, body: { nodes: {} } },
      'GET /v1/orgs/org1/nodes/n3/errors': { status: 404, body: {} },
      'GET /v1/orgs/org1/nodes/n2': { status: 404, body: {} },
    });
    const listed = await hzn(['ex', 'node', 'lse', 'n1'], { env: env() });
    // json.MarshalIndent escapes <, > and & as \u003c...
    expect(listed.stdout).toContain('"message": "Error \\u003ca\\u003e"');
    expect(JSON.parse(listed.stdout)).toEqual([error]);
    expect((await hzn(['ex', 'node', 'listerrors', 'n3'], { env: env() })).stdout).toBe('[]\n');
    expect(await hzn(['ex', 'node', 'listerrors', 'n2'], { env: env() })).toMatchObject({
      code: 8,
      stderr: "Error: node 'org1/n2' not found.\n",
    });
  });

  it('node: list, create (PUT ?noheartbeat=true), listpolicy of a node without one, addpolicy (v2), remove', async () => {
    on({
      'GET /v1/orgs/org1/nodes': {
        status: 200,
        body: { nodes: { 'org1/n1': { token: '***', name: 'n1', pattern: null } } },
      },
      'GET /v1/orgs/org1/nodes/n2': { status: 404, body: {} },
      'PUT /v1/orgs/org1/nodes/n2': { status: 201, body: { code: 'ok', msg: 'node added' } },
      'GET /v1/orgs/org1/nodes/n1': { status: 200, body: { nodes: {} } },
      'GET /v1/orgs/org1/nodes/n1/policy': { status: 404, body: {} },
      'PUT /v1/orgs/org1/nodes/n1/policy': { status: 201, body: {} },
      'DELETE /v1/orgs/org1/nodes/n1': { status: 204 },
    });
    expect((await hzn(['ex', 'node', 'ls'], { env: env() })).stdout).toBe('[\n  "org1/n1"\n]\n');
    const long = JSON.parse((await hzn(['ex', 'node', 'ls', '-l'], { env: env() })).stdout);
    expect(long['org1/n1'].pattern).toBe('');
    const created = await hzn(['ex', 'node', 'create', '-n', 'n2:tok', '-a', 'arm64'], { env: env() });
    expect(created.stdout).toBe('node added\nNode n2 created.\n');
    expect(JSON.parse(bodyOf('PUT /v1/orgs/org1/nodes/n2?noheartbeat=true'))).toMatchObject({
      token: 'tok',
      name: 'n2',
      arch: 'arm64',
      nodeType: 'device',
    });
    const policy = await hzn(['ex', 'node', 'lsp', 'n1'], { env: env() });
    expect(JSON.parse(policy.stdout)).toEqual({
      label: null,
      description: null,
      properties: null,
      constraints: null,
      deployment: null,
      management: null,
    });
    const added = await hzn(
      ['ex', 'node', 'addpolicy', 'n1', '-f', file('np.json', { properties: [{ name: 'a', value: 1 }] })],
      { env: env() },
    );
    expect(added.stdout).toContain('Node policy updated.\n');
    expect(JSON.parse(bodyOf('PUT /v1/orgs/org1/nodes/n1/policy?noheartbeat=true'))).toEqual({
      properties: [{ name: 'a', value: 1 }],
      constraints: [],
      deployment: { properties: [], constraints: [] },
      management: { properties: [], constraints: [] },
      nodePolicyVersion: 'v2',
    });
    expect((await hzn(['ex', 'node', 'rm', 'n1', '-f'], { env: env() })).code).toBe(0);
  });

  it('org list/create (served agbot patterns and policies at /deployment/...), user list/create, agbot commands', async () => {
    on({
      'GET /v1/orgs': { status: 200, body: { orgs: { b: { label: 'b' }, a: { label: 'a' } } } },
      'POST /v1/orgs/neworg': { status: 201, body: {} },
      'POST /v1/orgs/IBM/agbots/ag1/deployment/patterns': { status: 201, body: {} },
      'POST /v1/orgs/IBM/agbots/ag1/deployment/policies': { status: 201, body: {} },
      'GET /v1/orgs/org1/users/admin': {
        status: 200,
        body: { users: { 'org1/admin': { password: '***', admin: true, email: 'a@b', extra: 1 } } },
      },
      'POST /v1/orgs/org1/users/bob': { status: 201, body: {} },
      'GET /v1/orgs/org1/agbots': { status: 200, body: { agbots: { 'org1/ag': { name: 'ag' } } } },
      'POST /v1/orgs/org1/agbots/ag/deployment/policies': { status: 201, body: {} },
      'GET /v1/orgs/org1/agbots/ag/deployment/policies': {
        status: 200,
        body: {
          businessPols: {
            'org2_*': { businessPolOrgid: 'org2', businessPol: '*', nodeOrgid: 'org2', lastUpdated: 't' },
          },
        },
      },
      'POST /v1/orgs/org1/agbots/ag/deployment/patterns': { status: 409, body: {} },
    });
    expect((await hzn(['ex', 'org', 'ls'], { env: env() })).stdout).toBe('[\n  "b",\n  "a"\n]\n');
    const created = await hzn(
      ['ex', 'org', 'create', 'neworg', '-d', 'desc', '--max-nodes', '5', '-a', 'IBM/ag1'],
      { env: env() },
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(bodyOf('POST /v1/orgs/neworg'))).toEqual({
      label: 'neworg',
      description: 'desc',
      heartbeatIntervals: { minInterval: 0, maxInterval: 0, intervalAdjustment: 0 },
      limits: { maxNodes: 5 },
    });
    expect(JSON.parse(bodyOf('POST /v1/orgs/IBM/agbots/ag1/deployment/policies'))).toEqual({
      businessPolOrgid: 'neworg',
      businessPol: '*',
      nodeOrgid: 'neworg',
    });
    const user = JSON.parse((await hzn(['ex', 'user', 'ls'], { env: env() })).stdout);
    expect(user).toEqual({ 'org1/admin': { password: '***', email: 'a@b', admin: true } });
    expect((await hzn(['ex', 'user', 'create', 'bob', 'secret', '-A'], { env: env() })).code).toBe(0);
    expect(JSON.parse(bodyOf('POST /v1/orgs/org1/users/bob'))).toEqual({
      password: 'secret',
      admin: true,
      hubAdmin: false,
      email: '',
    });
    expect((await hzn(['ex', 'agbot', 'ls'], { env: env() })).stdout).toBe('[\n  "org1/ag"\n]\n');
    expect((await hzn(['ex', 'agbot', 'addpo', 'ag', 'org2'], { env: env() })).code).toBe(0);
    expect(
      JSON.parse((await hzn(['ex', 'agbot', 'listdeploymentpol', 'ag'], { env: env() })).stdout),
    ).toEqual({
      'org2_*_org2': { businessPol: '*', businessPolOrgid: 'org2', lastUpdated: 't', nodeOrgid: 'org2' },
    });
    expect(await hzn(['ex', 'agbot', 'addpattern', 'ag', 'org2', 'p'], { env: env() })).toMatchObject({
      code: 1,
      stderr: "Error: Pattern 'p' with org 'org2' and node org 'org2' already exists in agbot 'ag'\n",
    });
  });

  it('status prints the keys sorted; version prints the text (checked first when credentials exist)', async () => {
    on({
      'GET /v1/admin/status': { status: 200, body: { numberOfUsers: 2, msg: 'up', dbSchemaVersion: 1 } },
    });
    expect((await hzn(['ex', 'status'], { env: env() })).stdout).toBe(
      '{\n  "dbSchemaVersion": 1,\n  "msg": "up",\n  "numberOfUsers": 2\n}\n',
    );
    server.reset();
    on({ 'GET /v1/admin/version': { status: 200, body: '2.154.0\n' } });
    expect((await hzn(['ex', 'version'], { env: env() })).stdout).toBe('2.154.0\n');
    expect(server.calls()).toEqual(['GET /v1/admin/version', 'GET /v1/admin/version']);
    server.reset();
    on({ 'GET /v1/admin/version': { status: 200, body: '2.154.0' } });
    await hzn(['ex', 'version'], { env: { HZN_EXCHANGE_URL: `${server.url}/v1`, HZN_ORG_ID: 'o' } });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
  });
});

describe('secretsmanager (mapped onto /v1/orgs/{org}/secrets)', () => {
  it('list, list <name> exists / not (exit 1), -n rewrites into the node tree, -a lists all', async () => {
    on({
      'GET /v1/orgs/org1/secrets': { status: 200, body: ['db', 'api'] },
      'GET /v1/orgs/org1/secrets/node/n1': { status: 200, body: ['token'] },
      'GET /v1/orgs/org1/allsecrets': { status: 200, body: ['db', 'api', 'node/n1/token'] },
    });
    expect((await hzn(['sm', 'secret', 'ls'], { env: env() })).stdout).toBe('[\n  "db",\n  "api"\n]\n');
    expect((await hzn(['sm', 'secret', 'list', 'db'], { env: env() })).stdout).toBe(
      '{\n  "exists": true\n}\n',
    );
    expect(await hzn(['sm', 'secret', 'list', 'nope'], { env: env() })).toEqual({
      code: 1,
      stdout: '{\n  "exists": false\n}\n',
      stderr: '',
    });
    expect((await hzn(['sm', 'secret', 'list', 'token', '-n', 'n1'], { env: env() })).stdout).toBe(
      '{\n  "exists": true\n}\n',
    );
    expect((await hzn(['sm', 'secret', 'list', '-n', 'n1'], { env: env() })).stdout).toBe(
      '[\n  "token"\n]\n',
    );
    expect((await hzn(['sm', '-o', 'org1', 'secret', 'list', '-a'], { env: env() })).code).toBe(0);
    expect(server.calls().filter((c) => c !== 'GET /v1/admin/version')).toEqual([
      'GET /v1/orgs/org1/secrets',
      'GET /v1/orgs/org1/secrets',
      'GET /v1/orgs/org1/secrets',
      'GET /v1/orgs/org1/secrets/node/n1',
      'GET /v1/orgs/org1/secrets/node/n1',
      'GET /v1/orgs/org1/allsecrets',
    ]);
  });

  it('add PUTs {key, value} (from -d or a file), prompts when it exists; read; remove', async () => {
    on({
      'GET /v1/orgs/org1/secrets': { status: 200, body: ['db'] },
      'GET /v1/orgs/org1/secrets/user/bob': { status: 404, body: [] },
      'PUT /v1/orgs/org1/secrets/db': { status: 201, body: {} },
      'PUT /v1/orgs/org1/secrets/user/bob/pw': { status: 201, body: {} },
      'GET /v1/orgs/org1/secrets/db': { status: 200, body: { key: 'user', value: 's3cret' } },
      'DELETE /v1/orgs/org1/secrets/db': { status: 204 },
      'DELETE /v1/orgs/org1/secrets/nope': { status: 404, body: { code: 'not-found', msg: 'x' } },
    });
    const added = await hzn(
      ['sm', 'secret', 'add', 'user/bob/pw', '--secretKey', 'k', '-f', file('secret.txt', 'from file')],
      { env: env() },
    );
    expect(added.stdout).toBe('Secret "user/bob/pw" successfully added to the secrets manager.\n');
    expect(JSON.parse(bodyOf('PUT /v1/orgs/org1/secrets/user/bob/pw'))).toEqual({
      key: 'k',
      value: 'from file',
    });
    const declined = await hzn(['sm', 'secret', 'add', 'db', '--secretKey', 'k', '-d', 'v'], {
      env: env(),
      stdin: 'n\n',
    });
    expect(declined.stdout).toBe(
      'Secret "db" already exists in the secrets manager. Do you want to overwrite? [y/N]: Exiting.\n',
    );
    expect(writes()).toEqual(['PUT /v1/orgs/org1/secrets/user/bob/pw']);
    expect(
      (await hzn(['sm', 'secret', 'add', 'db', '--secretKey', 'k', '-d', 'v', '-O'], { env: env() })).code,
    ).toBe(0);
    expect((await hzn(['sm', 'secret', 'read', 'db'], { env: env() })).stdout).toBe(
      '{\n  "key": "user",\n  "value": "s3cret"\n}\n',
    );
    expect((await hzn(['sm', 'secret', 'rm', 'db', '-f'], { env: env() })).stdout).toBe(
      'Secret "db" successfully deleted from the secrets manager.\n',
    );
    expect(await hzn(['sm', 'secret', 'rm', 'nope', '-f'], { env: env() })).toMatchObject({
      code: 7,
      stderr: 'Error: Secret "nope" not found in the secrets manager, nothing to remove.\n',
    });
    const both = await hzn(['sm', 'secret', 'add', 'x', '--secretKey', 'k', '-d', 'v', '-f', 'y'], {
      env: env(),
    });
    expect(both.code).toBe(1);
  });
});

describe('credentials, endpoints and the version check', () => {
  it.each([
    [
      { HZN_EXCHANGE_USER_AUTH: '' },
      ['ex', 'status'],
      1,
      'Error: exchange user authentication must be specified with either the -u flag or HZN_EXCHANGE_USER_AUTH\n',
    ],
    [
      { HZN_EXCHANGE_USER_AUTH: '' },
      ['ex', 'node', 'ls'],
      1,
      'Error: exchange authentication must be specified with one of the following: the -u flag, the -n flag, HZN_EXCHANGE_USER_AUTH or HZN_EXCHANGE_NODE_AUTH\n',
    ],
    [
      { HZN_ORG_ID: '' },
      ['ex', 'node', 'ls'],
      1,
      'Error: organization ID must be specified with either the -o flag or HZN_ORG_ID\n',
    ],
    [
      { HZN_EXCHANGE_URL: '' },
      ['ex', 'node', 'ls'],
      7,
      'Error: Could not get the Exchange url from environment variable HZN_EXCHANGE_URL or the horizon agent\n',
    ],
  ])('%j %j → exit %i, one line naming the variable', async (more, argv, code, stderr) => {
    expect(await hzn(argv, { env: env(more) })).toEqual({ code, stdout: '', stderr });
    expect(server.requests).toEqual([]);
  });

  it('an unreachable Exchange or agent is exit 5 with one line naming the variable', async () => {
    // A port something listened on a moment ago: nothing answers there now.
    const closed = await startRecordingServer();
    await closed.close();
    const closedPort = new URL(closed.url).port;
    const exchange = await hzn(['ex', 'node', 'ls'], {
      env: env({ HZN_EXCHANGE_URL: `http://127.0.0.1:${closedPort}/v1` }),
    });
    expect(exchange.code).toBe(5);
    expect(exchange.stderr.split('\n')).toHaveLength(2);
    expect(exchange.stderr).toMatch(
      /^Error: Encountered HTTP error: ECONNREFUSED.*HZN_EXCHANGE_URL \(http:\/\/127\.0\.0\.1:\d+\/v1\)/,
    );
    const agent = await hzn(['node', 'ls'], { env: { HORIZON_URL: `http://127.0.0.1:${closedPort}` } });
    expect(agent.code).toBe(5);
    expect(agent.stderr.split('\n')).toHaveLength(2);
    expect(agent.stderr).toMatch(
      /^Error: Can't connect to the Horizon REST API to run GET http:\/\/127\.0\.0\.1:\d+\/node\. Check that HORIZON_URL/,
    );
  });

  it('an Exchange older than 2.124.0 is refused (exit 7); retries on 503 as HZN_HTTP_RETRIES says', async () => {
    on({ 'GET /v1/admin/version': { status: 200, body: '2.100.0' } });
    expect(await hzn(['ex', 'node', 'ls'], { env: env() })).toMatchObject({
      code: 7,
      stderr:
        'Error: The current exchange version 2.100.0 does not meet the requirement. The required version is 2.124.0 or above. Please upgrade the exchange.\n',
    });
    server.reset();
    on({
      'GET /v1/admin/version': (_req, count) =>
        count < 3 ? { status: 503, body: {} } : { status: 200, body: '2.154.0' },
      'GET /v1/orgs/org1/nodes': { status: 404, body: {} },
    });
    const retried = await hzn(['ex', 'node', 'ls'], {
      env: env({ HZN_HTTP_RETRIES: '2', HZN_HTTP_RETRY_INTERVAL: '0' }),
    });
    expect(retried).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect(server.calls()).toEqual([
      'GET /v1/admin/version',
      'GET /v1/admin/version',
      'GET /v1/admin/version',
      'GET /v1/orgs/org1/nodes',
    ]);
  });

  it('node credentials: -n (deployment: --id-token) or HZN_EXCHANGE_NODE_AUTH, org prepended', async () => {
    on({
      'GET /v1/orgs/org1/business/policies': { status: 404, body: {} },
      'GET /v1/orgs/org1/nodes': { status: 404, body: {} },
    });
    const noUser = env({ HZN_EXCHANGE_USER_AUTH: '' });
    expect((await hzn(['ex', 'dep', 'ls', '--id-token', 'node1:tok'], { env: noUser })).stdout).toBe('[]\n');
    expect(
      (await hzn(['ex', 'node', 'ls'], { env: { ...noUser, HZN_EXCHANGE_NODE_AUTH: 'other/node2:tok2' } }))
        .code,
    ).toBe(0);
    const auths = server.requests.map((r) =>
      Buffer.from(String(r.headers.authorization).slice(6), 'base64').toString(),
    );
    expect(auths).toEqual(['org1/node1:tok', 'org1/node1:tok', 'other/node2:tok2', 'other/node2:tok2']);
  });

  it('a failed write is exit 5 with the Exchange code and msg', async () => {
    on({
      'POST /v1/orgs/org1/users/bob': {
        status: 400,
        body: { code: 'invalid-input', msg: 'password is required' },
      },
    });
    const result = await hzn(['ex', 'user', 'create', 'bob', ''], { env: env() });
    expect(result).toEqual({
      code: 5,
      stdout: '',
      stderr: `Error: bad HTTP code 400 from POST ${server.url}/v1/orgs/org1/users/bob: invalid-input, password is required\n`,
    });
  });
});
