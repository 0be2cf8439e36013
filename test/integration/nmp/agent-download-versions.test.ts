import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_TYPE, signManifest } from '#lib/nmp/manifest';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { tempDir } from '#test/support/temp-dir';
import type { NmpStatus } from '../../../agent/nmp/store.ts';
import { type DownloadInput, downloadUpgrade, executableName } from '../../../agent/upgrade/download.ts';
import { type ObjectStore, startObjectStore } from '../../../scripts/local/object-store.ts';
import { publishAgentFiles } from '../../../scripts/publish-agent-files.ts';

/**
 * A manifest naming `latest` or a version range (agent/upgrade/download.ts) against the Exchange's
 * handlers over HTTP and the local object store, with versions published by `npm run
 * publish-agent`'s code: the newest published version within it, downloaded with the SHA-256 of
 * that version's own signed manifest (never sums the operator's manifest gives for a version it
 * could not know); none within, a malformed version, or the newest published by an unpinned key:
 * refused before anything is kept.
 */
const dir = tempDir('nmp-versions-');
const pinned = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
let store: ObjectStore;
beforeAll(async () => {
  store = await startObjectStore({ dir: join(dir, 'store') });
  process.env.EXCHANGE_OBJECTS_URL = store.url;
  process.env.EXCHANGE_OBJECTS_SECRET = store.secret;
});
afterAll(async () => store?.stop());
const server = useInProcessExchange();

const rootAuth = () => `Basic ${Buffer.from(`root/root:${server.rootPassword}`).toString('base64')}`;
const admin = { user: 'acme/admin', secret: 'admin-password-1' };
const node = { org: 'acme', id: 'n1', token: 'n1-token-secret' };
const bytesOf = (version: string) => Buffer.from(`the agent ${version}`.repeat(1000));

async function publish(version: string, key = pinned) {
  mkdirSync(join(dir, version), { recursive: true });
  const path = join(dir, version, executableName());
  writeFileSync(path, bytesOf(version));
  await publishAgentFiles({
    cssUrl: `${server.baseUrl}/v1/css`,
    credentials: `root/root:${server.rootPassword}`,
    version,
    files: [path],
    signingKey: key.privateKey,
    publicKeyPem: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
}

/** An operator's manifest in acme (as `hzn nm manifest add -k` writes one), signed with the pinned key. */
async function operatorManifest(id: string, softwareUpgrade: object) {
  const text = JSON.stringify({ softwareUpgrade });
  const object = `${server.baseUrl}/v1/css/api/v1/objects/acme/${MANIFEST_TYPE}/${id}`;
  const headers = { authorization: rootAuth(), 'content-type': 'application/json' };
  const meta = {
    meta: { objectID: id, objectType: MANIFEST_TYPE, signature: signManifest(text, pinned.privateKey) },
  };
  expect((await fetch(object, { method: 'PUT', headers, body: JSON.stringify(meta) })).ok).toBe(true);
  const data = await fetch(`${object}/data`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    body: text,
  });
  expect(data.ok).toBe(true);
}

let job = 0;
const download = (manifest: string) => {
  job += 1;
  const input: DownloadInput = {
    cssUrl: `${server.baseUrl}/v1/css`,
    creds: node,
    status: { agentUpgradeInternal: { manifest, allowDowngrade: false } } as NmpStatus,
    dir: join(dir, 'jobs', String(job)),
    keys: [pinned.publicKey],
    signal: AbortSignal.timeout(60_000),
    arch: process.arch,
    currentVersion: '0.1.0',
  };
  return downloadUpgrade(input);
};
const refusal = (manifest: string) =>
  download(manifest).then(
    () => 'downloaded',
    (error: Error & { status?: string }) => `${error.status}: ${error.message}`,
  );

beforeAll(async () => {
  const root = { user: 'root/root', secret: server.rootPassword };
  expect(
    (await server.http('POST', '/v1/orgs/acme', { auth: root, body: { label: 'a', description: 'a' } }))
      .status,
  ).toBe(201);
  await server.http('POST', '/v1/orgs/acme/users/admin', {
    auth: root,
    body: { password: admin.secret, email: 'a@x', admin: true },
  });
  await server.http('PUT', '/v1/orgs/acme/nodes/n1', {
    auth: admin,
    body: { name: 'n1', token: node.token, pattern: '', publicKey: '' },
  });
  for (const version of ['1.0.0', '1.2.0', '2.0.0']) await publish(version);
  const file = executableName();
  // Sums the operator could not have known: ignored for latest and ranges.
  await operatorManifest('latest', { version: 'latest', files: [file], sha256: { [file]: '0'.repeat(64) } });
  await operatorManifest('ones', { version: '[1.0.0,2.0.0)', files: ['*'] });
  await operatorManifest('threes', { version: '[3.0.0,4.0.0)', files: ['*'] });
  await operatorManifest('nonsense', { version: 'newest please', files: ['*'] });
});

describe('a manifest naming latest or a range', () => {
  it('latest: the newest published version, with the sums of its own signed manifest', async () => {
    const result = await download('acme/latest');
    expect(result).toMatchObject({
      kind: 'downloaded',
      version: '2.0.0',
      sha256: createHash('sha256').update(bytesOf('2.0.0')).digest('hex'),
    });
    if (result.kind === 'downloaded') expect(readFileSync(result.path).equals(bytesOf('2.0.0'))).toBe(true);
  });

  it('a range: the newest published version within it', async () => {
    expect(await download('acme/ones')).toMatchObject({ kind: 'downloaded', version: '1.2.0' });
  });

  it('refuses a range nothing published is within, and a version that is neither', async () => {
    expect(await refusal('acme/threes')).toBe(
      "precheck failed: no published agent version is within '[3.0.0,4.0.0)'",
    );
    expect(await refusal('acme/nonsense')).toBe(
      "precheck failed: software version 'newest please' is not a version, a range or latest",
    );
  });

  it('refuses latest when the newest version was published under a key the device did not pin', async () => {
    await publish('2.5.0', stranger);
    expect(await refusal('acme/latest')).toBe(
      'failed: the manifest IBM/agent-upgrade-2.5.0 is not signed by a key pinned on this device',
    );
  });
});
