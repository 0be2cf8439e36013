import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestSignedBy } from '#lib/nmp/manifest';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { tempDir } from '#test/support/temp-dir';
import { type ObjectStore, startObjectStore } from '../../../scripts/local/object-store.ts';
import { publishAgentFiles } from '../../../scripts/publish-agent-files.ts';

/**
 * The publish command's work (scripts/publish-agent-files.ts) against the Exchange's handlers over
 * HTTP and the local object store: each file uploaded to its signed URL and published, the signed
 * manifest, IBM's AgentFileVersion, and what a node of any org then reads.
 */
const dir = tempDir('publish-');
let store: ObjectStore;
beforeAll(async () => {
  store = await startObjectStore({ dir: join(dir, 'store') });
  process.env.EXCHANGE_OBJECTS_URL = store.url;
  process.env.EXCHANGE_OBJECTS_SECRET = store.secret;
});
afterAll(() => store?.stop());
const server = useInProcessExchange();

describe('publishing an agent version', () => {
  it('publishes both executables and the installer, then a signed manifest with their SHA-256; nodes of any org read them', async () => {
    const root = { user: 'root/root', secret: server.rootPassword };
    // Org IBM exists from the table's bootstrap.
    expect(
      (await server.http('POST', '/v1/orgs/acme', { auth: root, body: { label: 'a', description: 'a' } }))
        .status,
    ).toBe(201);
    const files = ['horizon-agent-linux-x64', 'horizon-agent-linux-arm64', 'agent-install.sh'].map(
      (name, i) => {
        const path = join(dir, name);
        writeFileSync(path, Buffer.alloc(100_000 + i, i + 1));
        return path;
      },
    );
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const published = await publishAgentFiles({
      cssUrl: `${server.baseUrl}/v1/css`,
      credentials: `root/root:${server.rootPassword}`,
      version: '2.0.0',
      files,
      signingKey: privateKey,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    expect(published.bytes).toBe(300_003);
    const versions = await server.http('GET', '/v1/orgs/IBM/AgentFileVersion', { auth: root });
    expect(versions.body.agentSoftwareVersions).toEqual(['2.0.0']);

    // A node of another org: the manifest and a file, through the redirects to signed URLs.
    const user = { user: 'acme/u', secret: 'u-password-1' };
    await server.http('POST', '/v1/orgs/acme/users/u', {
      auth: root,
      body: { password: user.secret, email: 'u@x', admin: false },
    });
    const node = { user: 'acme/n1', secret: 'n1-token-secret' };
    await server.http('PUT', '/v1/orgs/acme/nodes/n1', {
      auth: user,
      body: { name: 'n1', token: node.secret, pattern: '', publicKey: '' },
    });
    const css = `${server.baseUrl}/v1/css/api/v1/objects/IBM`;
    const get = (path: string) =>
      fetch(`${css}/${path}`, {
        headers: { authorization: `Basic ${Buffer.from(`${node.user}:${node.secret}`).toString('base64')}` },
      });
    const meta = (await (await get('agent_upgrade_manifests/agent-upgrade-2.0.0')).json()) as Record<
      string,
      string
    >;
    const text = await (await get('agent_upgrade_manifests/agent-upgrade-2.0.0/data')).text();
    expect(manifestSignedBy(text, meta.signature as string, [publicKey])).toBe(true);
    expect(JSON.parse(text).softwareUpgrade.sha256['horizon-agent-linux-x64']).toBe(
      published.files[0]?.sha256,
    );
    const binary = Buffer.from(
      await (await get('agent_software_files-2.0.0/horizon-agent-linux-x64/data')).arrayBuffer(),
    );
    expect(binary.equals(Buffer.alloc(100_000, 1))).toBe(true);
  });
});
