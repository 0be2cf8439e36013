import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { manifestSignedBy } from '#lib/nmp/manifest';
import { type RecordingServer, type Route, startRecordingServer } from '../test-support/recording-server.ts';
import { hzn } from '../test-support/run-hzn.ts';
import { tempDir } from '../test-support/temp-dir.ts';

/**
 * `hzn nm manifest …` and `hzn nm agentfiles …`: upstream's calls (open-horizon/anax
 * cli/node_management) against a recording object store, and the manifest's signature.
 */
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const dir = tempDir('hzn-nm-');
const env = () => ({
  HZN_FSS_CSSURL: `${server.url}/v1/css/`,
  HZN_ORG_ID: 'org1',
  HZN_EXCHANGE_USER_AUTH: 'admin:pw',
});
const on = (routes: Record<string, Route>) => server.on(routes);
const CSS = '/v1/css/api/v1/objects';
const meta = (objectType: string, objectID: string, description = '') => ({
  objectType,
  objectID,
  description,
});
const IBM_FILES = [
  meta('agent_software_files-2.1.0', 'horizon-agent-linux-x64', 'x64'),
  meta('agent_software_files-2.1.0', 'horizon-agent-linux-arm64'),
  meta('agent_software_files-2.10.0', 'horizon-agent-linux-x64'),
  meta('agent_config_files-1.0.0', 'agent-install.cfg'),
  meta('agent_upgrade_manifests', 'm'),
  meta('agent_software_files-notaversion', 'x'),
];

describe('hzn nm agentfiles', () => {
  it('list: the agent files of IBM, types descending then versions newest first (semver); -V latest the newest of each', async () => {
    on({ [`GET ${CSS}/IBM`]: { status: 200, body: IBM_FILES } });
    const all = JSON.parse((await hzn(['nm', 'af', 'list'], { env: env() })).stdout);
    expect(
      all.map((f: { fileType: string; fileVersion: string }) => `${f.fileType}-${f.fileVersion}`),
    ).toEqual([
      'agent_software_files-2.10.0',
      'agent_software_files-2.1.0',
      'agent_software_files-2.1.0',
      'agent_config_files-1.0.0',
    ]);
    expect(all[1]).toEqual({
      fileName: 'horizon-agent-linux-x64',
      fileType: 'agent_software_files',
      fileVersion: '2.1.0',
      description: 'x64',
    });
    const latest = JSON.parse(
      (await hzn(['nm', 'af', 'ls', '-t', 'agent_software_files', '-V', 'latest'], { env: env() })).stdout,
    );
    expect(latest).toEqual([
      { fileName: 'horizon-agent-linux-x64', fileType: 'agent_software_files', fileVersion: '2.10.0' },
    ]);
    expect(server.calls()).toContain(`GET ${CSS}/IBM?filters=true&deleted=false`);
  });

  it("without HZN_FSS_CSSURL: the local agent's object store (mms_api of its GET /status), as upstream's hzn asks", async () => {
    on({
      'GET /status': { status: 200, body: { configuration: { mms_api: `${server.url}/v1/css` } } },
      [`GET ${CSS}/IBM`]: { status: 200, body: IBM_FILES },
    });
    const { HZN_FSS_CSSURL: _, ...withoutCss } = env();
    const listed = await hzn(['nm', 'af', 'list'], { env: { ...withoutCss, HORIZON_URL: server.url } });
    expect(JSON.parse(listed.stdout)).toHaveLength(4);
    expect(server.calls()).toEqual(['GET /status', `GET ${CSS}/IBM?filters=true&deleted=false`]);
  });

  it('without HZN_FSS_CSSURL and no agent answering: says where the address comes from', async () => {
    const { HZN_FSS_CSSURL: _, ...withoutCss } = env();
    const failed = await hzn(['nm', 'af', 'list'], {
      env: { ...withoutCss, HORIZON_URL: 'http://127.0.0.1:9' },
    });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(
      'Could not get the model management service url from environment variable HZN_FSS_CSSURL or the horizon agent',
    );
  });

  it('versions: from the list of types; -V only the versions (needs -t)', async () => {
    on({ [`GET ${CSS}/IBM`]: { status: 200, body: IBM_FILES.map((m) => m.objectType) } });
    const versions = JSON.parse(
      (await hzn(['nm', 'af', 'versions', '-t', 'agent_software_files', '-V'], { env: env() })).stdout,
    );
    expect(versions).toEqual(['2.10.0', '2.1.0', '2.1.0']);
    expect(server.calls()).toContain(`GET ${CSS}/IBM?list_object_type=true`);
    expect((await hzn(['nm', 'af', 'versions', '-V'], { env: env() })).code).toBe(1);
  });
});

describe('hzn nm manifest', () => {
  it('add checks the files exist, PUTs the metadata (signed, empty destination policy) then the data; the signature verifies with the key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'sign.key');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    on({
      [`GET ${CSS}/IBM`]: { status: 200, body: IBM_FILES },
      [`GET ${CSS}/org1`]: { status: 404, body: [] },
      [`PUT ${CSS}/org1/agent_upgrade_manifests/up`]: { status: 204 },
      [`PUT ${CSS}/org1/agent_upgrade_manifests/up/data`]: { status: 204 },
    });
    const manifest = {
      softwareUpgrade: {
        version: '2.1.0',
        files: ['horizon-agent-linux-x64'],
        sha256: { 'horizon-agent-linux-x64': 'a'.repeat(64) },
      },
    };
    const file = join(dir, 'manifest.json');
    writeFileSync(file, JSON.stringify(manifest));
    const result = await hzn(
      ['nm', 'man', 'add', '-t', 'agent_upgrade_manifests', '-i', 'up', '-f', file, '-k', keyFile],
      { env: env() },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/Manifest org1\/up added to the Management Hub\n$/);
    const put = (suffix: string) =>
      server.requests.find(
        (r) => r.method === 'PUT' && r.url === `${CSS}/org1/agent_upgrade_manifests/up${suffix}`,
      )?.body ?? '';
    const body = JSON.parse(put(''));
    expect(body).toMatchObject({
      data: null,
      meta: { objectID: 'up', objectType: 'agent_upgrade_manifests', hashAlgorithm: 'SHA256' },
    });
    expect(body.meta.destinationPolicy).toEqual({
      properties: [],
      constraints: [],
      services: [],
      timestamp: 0,
    });
    expect(manifestSignedBy(put('/data'), body.meta.signature, [publicKey])).toBe(true);
    expect(JSON.parse(put('/data'))).toEqual(manifest);
  });

  it('add refuses files the hub does not have, before any write', async () => {
    on({ [`GET ${CSS}/IBM`]: { status: 200, body: IBM_FILES } });
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ softwareUpgrade: { version: '2.1.0', files: ['horizon-agent-macos'] } }),
    );
    const result = await hzn(
      ['nm', 'man', 'add', '-t', 'agent_upgrade_manifests', '-i', 'up', '-f', file, '--noIntegrity'],
      { env: env() },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /File "horizon-agent-macos" version "2.1.0" of type "agent_software_files"/,
    );
    expect(server.calls().filter((c) => c.startsWith('PUT'))).toEqual([]);
  });

  it('list: ids and types, -l the manifest itself; remove DELETEs (404: exit 8)', async () => {
    on({
      [`GET ${CSS}/org1`]: { status: 200, body: [meta('agent_upgrade_manifests', 'up')] },
      [`GET ${CSS}/org1/agent_upgrade_manifests/up/data`]: {
        status: 200,
        body: { softwareUpgrade: { version: 'latest', files: ['*'] } },
      },
      [`DELETE ${CSS}/org1/agent_upgrade_manifests/up`]: { status: 204 },
    });
    expect(JSON.parse((await hzn(['nm', 'man', 'ls'], { env: env() })).stdout)).toEqual([
      { manifestID: 'org1/up', manifestType: 'agent_upgrade_manifests' },
    ]);
    const long = await hzn(['nm', 'man', 'ls', '-t', 'agent_upgrade_manifests', '-i', 'up', '-l'], {
      env: env(),
    });
    expect(JSON.parse(long.stdout)).toEqual({ softwareUpgrade: { version: 'latest', files: ['*'] } });
    expect(
      (await hzn(['nm', 'man', 'rm', '-t', 'agent_upgrade_manifests', '-i', 'up', '-f'], { env: env() }))
        .stdout,
    ).toBe('Manifest org1/up deleted from the Management Hub\n');
    expect(
      (await hzn(['nm', 'man', 'rm', '-t', 'agent_upgrade_manifests', '-i', 'gone', '-f'], { env: env() }))
        .code,
    ).toBe(8);
  });
});
