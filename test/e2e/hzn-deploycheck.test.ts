import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signDeployment } from '#lib/protocol/deployment-signature';
import type { Credentials } from '#test/support/http';
import { createNode, createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { hzn as runHzn } from '../../cli/test-support/run-hzn.ts';
import { testSigner } from './support/agbot-org.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * `hzn deploycheck` against the real Exchange (serverless-offline + DynamoDB Local): a deployment
 * policy checked against a node that fits and one that does not, with upstream's output shape
 * (anax compcheck.CompCheckOutput: `compatible`, `reason` keyed `org/url_version_arch`, `input`
 * with -l; a map keyed by node id for several nodes).
 */
const server = useSharedOffline();
const ORG = freshId('dc-e2e');
let admin: Credentials;

const hzn = (args: string[]) =>
  runHzn(args, {
    env: {
      HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
      HZN_ORG_ID: ORG,
      HZN_EXCHANGE_USER_AUTH: `${admin.user.split('/')[1]}:${admin.secret}`,
    },
  });

const put = async (path: string, body: unknown, status = 201) =>
  expectStatus(await server.http('PUT', path, { auth: admin, body }), status, `PUT ${path}`);
const post = async (path: string, body: unknown, status = 201) =>
  expectStatus(await server.http('POST', path, { auth: admin, body }), status, `POST ${path}`);

const SERVICE_KEY = (version: string) => `${ORG}/dc-svc_${version}_amd64`;
const MISSING_TOKEN = 'Secret Binding Incompatible: Secret dc-token does not exist in the secret manager.';

beforeAll(async () => {
  const fixtures = { http: server.http, root: { user: 'root/root', secret: server.rootPassword } };
  await createOrg(fixtures, ORG);
  admin = await createUser(fixtures, ORG, 'admin', { admin: true });
  const signer = testSigner();
  const deployment = JSON.stringify({
    services: { dc: { image: 'busybox:latest', secrets: { token: { description: 'api token' } } } },
  });
  for (const version of ['1.0.0', '2.0.0']) {
    await post(`/v1/orgs/${ORG}/services`, {
      label: 'dc',
      url: 'dc-svc',
      version,
      arch: 'amd64',
      sharable: 'multiple',
      userInput: [{ name: 'GREETING', label: '', type: 'string', defaultValue: '' }],
      deployment,
      deploymentSignature: signDeployment(deployment, signer.privateKey),
    });
  }
  // Version 2.0.0 asks for a GPU the nodes do not have.
  await put(`/v1/orgs/${ORG}/services/dc-svc_2.0.0_amd64/policy`, { constraints: ['gpu == true'] });
  await post(`/v1/orgs/${ORG}/business/policies/dc-pol`, {
    label: 'dc',
    service: {
      name: 'dc-svc',
      org: ORG,
      arch: '*',
      serviceVersions: [
        { version: '2.0.0', priority: { priority_value: 1 } },
        { version: '1.0.0', priority: { priority_value: 2 } },
      ],
    },
    properties: [{ name: 'team', value: 'blue' }],
    constraints: ['location == "lab"'],
    userInput: [
      {
        serviceOrgid: ORG,
        serviceUrl: 'dc-svc',
        serviceVersionRange: '[0.0.0,INFINITY)',
        inputs: [{ name: 'GREETING', value: 'hello' }],
      },
    ],
    secretBinding: [
      {
        serviceOrgid: ORG,
        serviceUrl: 'dc-svc',
        serviceVersionRange: '[0.0.0,INFINITY)',
        enableNodeLevelSecrets: false,
        secrets: [{ token: 'dc-token' }],
      },
    ],
  });
  for (const [id, location] of [
    ['lab-node', 'lab'],
    ['field-node', 'field'],
  ] as const) {
    await createNode({ http: server.http, root: admin }, admin, id);
    await put(`/v1/orgs/${ORG}/nodes/${id}/policy`, {
      properties: [{ name: 'location', value: location }],
      constraints: ['team == "blue"'],
    });
  }
});

describe('hzn deploycheck against the Exchange', () => {
  it('policy: the fitting node is compatible with the first version that fits, the other is not', async () => {
    const fits = await hzn(['deploycheck', 'policy', '-b', 'dc-pol', '-n', 'lab-node']);
    expect(fits.stderr).toBe('');
    expect(fits.code).toBe(0);
    expect(JSON.parse(fits.stdout)).toEqual({
      compatible: true,
      reason: { [SERVICE_KEY('1.0.0')]: 'Compatible' },
    });

    const all = await hzn(['dc', 'pol', '-b', `${ORG}/dc-pol`, '-n', 'lab-node', '-c']);
    expect(JSON.parse(all.stdout)).toEqual({
      compatible: true,
      reason: {
        [SERVICE_KEY('2.0.0')]: 'Policy Incompatible: node: constraint "gpu == true" is not satisfied',
        [SERVICE_KEY('1.0.0')]: 'Compatible',
      },
    });

    const misfit = await hzn(['deploycheck', 'policy', '-b', 'dc-pol', '-n', 'field-node']);
    expect(misfit.code).toBe(0);
    const verdict = JSON.parse(misfit.stdout);
    expect(verdict.compatible).toBe(false);
    expect(verdict.reason[SERVICE_KEY('1.0.0')]).toBe(
      'Policy Incompatible: node: constraint "location == "lab"" is not satisfied',
    );
  });

  it('several nodes: a map keyed by node id; -l adds the input used', async () => {
    const both = await hzn([
      'deploycheck',
      'policy',
      '-b',
      'dc-pol',
      '-n',
      'lab-node',
      '-n',
      'field-node',
      '-l',
    ]);
    const out = JSON.parse(both.stdout);
    expect(Object.keys(out).sort()).toEqual([`${ORG}/field-node`, `${ORG}/lab-node`]);
    expect(out[`${ORG}/lab-node`].compatible).toBe(true);
    expect(out[`${ORG}/field-node`].compatible).toBe(false);
    expect(out[`${ORG}/lab-node`].input).toMatchObject({
      node_id: `${ORG}/lab-node`,
      node_arch: 'amd64',
      node_type: 'device',
      business_policy_id: `${ORG}/dc-pol`,
      node_policy: { properties: [{ name: 'location', value: 'lab' }] },
    });
  });

  it('userinput, secretbinding and all: complete input and bound secrets pass; a missing binding is named', async () => {
    const ui = await hzn(['deploycheck', 'userinput', '-b', 'dc-pol', '-n', 'lab-node']);
    expect(JSON.parse(ui.stdout)).toEqual({
      compatible: true,
      reason: { [SERVICE_KEY('2.0.0')]: 'Compatible' },
    });
    // The bound secret must exist in the secrets manager, as the agbot will read it.
    const noSecret = await hzn(['dc', 'sb', '-b', 'dc-pol', '-n', 'lab-node']);
    expect(JSON.parse(noSecret.stdout)).toEqual({
      compatible: false,
      reason: {
        [SERVICE_KEY('2.0.0')]: MISSING_TOKEN,
        [SERVICE_KEY('1.0.0')]: MISSING_TOKEN,
      },
    });
    await put(`/v1/orgs/${ORG}/secrets/dc-token`, { key: 'token', value: 'not-shown' });
    const sb = await hzn(['dc', 'sb', '-b', 'dc-pol', '-n', 'lab-node']);
    expect(JSON.parse(sb.stdout).compatible).toBe(true);
    expect(sb.stdout).not.toContain('not-shown');
    const all = await hzn(['deploycheck', 'all', '-b', 'dc-pol', '-n', 'lab-node']);
    expect(JSON.parse(all.stdout)).toEqual({
      compatible: true,
      reason: { [SERVICE_KEY('1.0.0')]: 'Compatible' },
    });

    await post(`/v1/orgs/${ORG}/business/policies/dc-unbound`, {
      label: 'no bindings',
      service: { name: 'dc-svc', org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      properties: [{ name: 'team', value: 'blue' }],
      constraints: ['location == "lab"'],
    });
    const unbound = await hzn(['deploycheck', 'all', '-b', 'dc-unbound', '-n', 'lab-node']);
    expect(JSON.parse(unbound.stdout)).toEqual({
      compatible: false,
      reason: { [SERVICE_KEY('1.0.0')]: 'User Input Incompatible: no user input found for the service' },
    });
    const secretsOnly = await hzn(['deploycheck', 'secretbinding', '-b', 'dc-unbound', '-n', 'lab-node']);
    expect(JSON.parse(secretsOnly.stdout).reason[SERVICE_KEY('1.0.0')]).toBe(
      `Secret Binding Incompatible: no secret binding for service ${ORG}/dc-svc`,
    );
  });

  it('--service and --service-pol take the definitions and the service policy from files; dependencies must resolve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-files-'));
    const file = (name: string, body: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(body));
      return path;
    };
    const definition = file('service.json', {
      org: ORG,
      url: 'dc-svc',
      version: '1.0.0',
      arch: 'amd64',
      deployment: { services: { dc: { image: 'busybox:latest' } } },
      requiredServices: [{ org: ORG, url: 'dc-dep', versionRange: '[1.0.0,INFINITY)', arch: 'amd64' }],
    });
    const check = async (...more: string[]) =>
      JSON.parse(
        (
          await hzn([
            'dc',
            'policy',
            '-b',
            'dc-pol',
            '-n',
            'lab-node',
            '-c',
            '--service',
            definition,
            ...more,
          ])
        ).stdout,
      );
    expect(await check()).toEqual({
      compatible: false,
      reason: {
        [SERVICE_KEY('2.0.0')]: 'Policy Incompatible: Service definition not found in the input.',
        [SERVICE_KEY('1.0.0')]:
          `Policy Incompatible: required service ${ORG}/dc-dep has no version in [1.0.0,INFINITY) for arch amd64 in the Exchange`,
      },
    });

    const dependency = JSON.stringify({ services: { dep: { image: 'busybox:latest' } } });
    await post(`/v1/orgs/${ORG}/services`, {
      label: 'dep',
      url: 'dc-dep',
      version: '1.2.0',
      arch: 'amd64',
      sharable: 'multiple',
      deployment: dependency,
      deploymentSignature: signDeployment(dependency, testSigner().privateKey),
    });
    expect((await check()).reason[SERVICE_KEY('1.0.0')]).toBe('Compatible');

    // The service policy from a file replaces the Exchange's (there is none for 1.0.0 there).
    const servicePolicy = file('service-policy.json', { constraints: ['gpu == true'] });
    const refused = await check('--service-pol', servicePolicy);
    expect(refused.compatible).toBe(false);
    expect(refused.reason[SERVICE_KEY('1.0.0')]).toMatch(/^Policy Incompatible: .*gpu/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad flag combinations and unknown ids as upstream', async () => {
    expect(await hzn(['deploycheck', 'policy', '-n', 'lab-node'])).toMatchObject({
      code: 1,
      stderr: 'Error: Either -b or -B must be specified.\n',
    });
    const ghost = await hzn(['deploycheck', 'policy', '-b', 'dc-pol', '-n', 'ghost']);
    expect(ghost).toMatchObject({ code: 7, stderr: `Error: No node found for this node id ${ORG}/ghost.\n` });
    const noPolicy = await hzn(['deploycheck', 'policy', '-b', 'nope', '-n', 'lab-node']);
    expect(noPolicy.stderr).toBe(`Error: No deployment policy found for this id ${ORG}/nope.\n`);
  });
});
