import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Credentials } from '#test/support/http';
import { tempDir } from '#test/support/temp-dir';
import { createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { publishAgentFiles } from '../../scripts/publish-agent-files.ts';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * Node management policies over the real HTTP stack (serverless-offline, its object store), once
 * per route shape: agent files published, then the real hzn process (the bundle build:cli makes):
 * nm agentfiles, nm manifest add (signed) and list -l (the data through the 302 to a signed URL),
 * exchange nmp add --applies-to, list, disable/enable, status, exchange node management, remove.
 */
const work = tempDir('nmp-e2e-');
const server = useSharedOffline();
const bundle = join(work, 'hzn.mjs');
const ORG = freshId('nmp-e2e');
let admin: Credentials;
let node: Credentials;

const hzn = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [bundle, ...args],
      {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: work,
          HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
          HZN_FSS_CSSURL: `${server.baseUrl}/v1/css/`,
          HZN_ORG_ID: ORG,
          HZN_EXCHANGE_USER_AUTH: `admin:${admin.secret}`,
          HZN_HTTP_RETRIES: '0',
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
const file = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

beforeAll(async () => {
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
  node = { user: `${ORG}/n1`, secret: 'n1-token-secret' };
  const nodePath = `/v1/orgs/${ORG}/nodes/n1`;
  const body = { name: 'n1', token: node.secret, pattern: '', publicKey: 'node-key', arch: 'amd64' };
  expectStatus(await server.http('PUT', nodePath, { auth: admin, body }), 201, nodePath);
  const policy = { properties: [{ name: 'purpose', value: 'edge' }], constraints: [] };
  expectStatus(
    await server.http('PUT', `${nodePath}/policy`, { auth: admin, body: policy }),
    201,
    'node policy',
  );
}, 240_000);

describe('node management policies through hzn and the HTTP stack', () => {
  it('publishes agent files, adds a signed manifest, an NMP that reaches the node, and follows its status', async () => {
    const files = ['horizon-agent-linux-x64', 'agent-install.sh'].map((name) => {
      const path = join(work, name);
      writeFileSync(path, `${name} bytes`);
      return path;
    });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await publishAgentFiles({
      cssUrl: `${server.baseUrl}/v1/css`,
      credentials: `root/root:${server.rootPassword}`,
      version: '2.0.0',
      files,
      signingKey: privateKey,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    const agentFiles = await hzn(['nm', 'agentfiles', 'list', '-t', 'agent_software_files']);
    expect(agentFiles.stderr).toBe('');
    expect(JSON.parse(agentFiles.stdout).map((f: { fileName: string }) => f.fileName)).toEqual([
      'agent-install.sh',
      'horizon-agent-linux-x64',
    ]);

    const keyFile = join(work, 'signer.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    const manifest = { softwareUpgrade: { version: 'latest', files: ['horizon-agent-linux-x64'] } };
    const added = await hzn([
      'nm',
      'manifest',
      'add',
      '-t',
      'agent_upgrade_manifests',
      '-i',
      'm1',
      '-f',
      file('m.json', manifest),
      '-k',
      keyFile,
    ]);
    expect(added.stderr).toBe('');
    expect(added.stdout).toContain(`Manifest ${ORG}/m1 added to the Management Hub`);
    const shown = await hzn(['nm', 'manifest', 'list', '-t', 'agent_upgrade_manifests', '-i', 'm1', '-l']);
    expect(JSON.parse(shown.stdout)).toEqual(manifest);

    const nmp = {
      label: 'edge upgrade',
      constraints: ['purpose == edge'],
      enabled: true,
      agentUpgradePolicy: { manifest: 'm1' },
    };
    const nmpAdded = await hzn([
      'exchange',
      'nmp',
      'add',
      'up1',
      '-f',
      file('nmp.json', nmp),
      '--applies-to',
    ]);
    expect(nmpAdded.stderr).toBe('');
    expect(nmpAdded.stdout).toBe(
      `Node management policy ${ORG}/up1 added in the Horizon Exchange\n[\n  "${ORG}/n1"\n]\n`,
    );
    expect(JSON.parse((await hzn(['exchange', 'nmp', 'list'])).stdout)).toEqual([`${ORG}/up1`]);
    expect((await hzn(['exchange', 'nmp', 'disable', 'up1'])).stdout).toBe(
      `Node management policy ${ORG}/up1 disabled in the Horizon Exchange\n`,
    );
    expect((await hzn(['exchange', 'nmp', 'enable', 'up1', '-w', '60'])).stdout).toBe(
      `Node management policy ${ORG}/up1 enabled in the Horizon Exchange\n`,
    );
    const listed = JSON.parse((await hzn(['exchange', 'nmp', 'list', 'up1'])).stdout);
    expect(listed[`${ORG}/up1`]).toMatchObject({
      enabled: true,
      startWindow: 60,
      constraints: ['purpose == edge'],
      patterns: [],
    });
    expect(JSON.parse((await hzn(['exchange', 'node', 'management', 'list', 'n1'])).stdout)).toEqual({
      [`${ORG}/up1`]: 'enabled',
    });

    // The node reports, as an agent does; hzn reads it per node, and resets it.
    const status = {
      agentUpgradePolicyStatus: {
        scheduledTime: '2031-01-01T00:00:00Z',
        status: 'failed',
        errorMessage: 'boom',
      },
    };
    expectStatus(
      await server.http('PUT', `/v1/orgs/${ORG}/nodes/n1/managementStatus/up1`, { auth: node, body: status }),
      201,
      'status',
    );
    expect(JSON.parse((await hzn(['exchange', 'nmp', 'status', 'up1'])).stdout)).toEqual({
      [`${ORG}/n1`]: 'failed',
    });
    expect((await hzn(['exchange', 'node', 'mgmt', 'reset', 'n1', '-p', 'up1'])).code).toBe(0);
    expect(JSON.parse((await hzn(['exchange', 'node', 'management', 'status', 'n1'])).stdout)).toEqual({
      [`${ORG}/up1`]: 'reset',
    });

    expect((await hzn(['exchange', 'nmp', 'remove', 'up1', '-f'])).code).toBe(0);
    const gone = await server.http('GET', `/v1/orgs/${ORG}/nodes/n1/managementStatus`, { auth: admin });
    expect(gone.status).toBe(404);
  });
});
