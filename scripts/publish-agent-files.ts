import { createHash, type KeyObject } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { MANIFEST_TYPE, signManifest, type UpgradeManifest } from '#lib/nmp/manifest';

/**
 * Publishes one agent version to the object store (docs/nmp.md#publishing-an-agent-version): each
 * file (the executables of both architectures, the installer) as a public IBM object of type
 * `agent_software_files-<version>` (data to a signed upload URL, then the metadata, which counts
 * the version in IBM's AgentFileVersion), then the manifest `agent-upgrade-<version>` naming every
 * file with its SHA-256, signed with the publisher's key, which devices pin at install time.
 */
export interface PublishOptions {
  /** The object store: `<exchange URL>/css`. */
  cssUrl: string;
  /** Basic credentials of an IBM org admin or root: `org/user:password`. */
  credentials: string;
  version: string;
  files: string[];
  signingKey: KeyObject;
  publicKeyPem: string;
  log?: (line: string) => void;
}

export interface Published {
  manifestId: string;
  bytes: number;
  files: { name: string; size: number; sha256: string }[];
}

const sha256Of = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

export async function publishAgentFiles(options: PublishOptions): Promise<Published> {
  const log = options.log ?? (() => undefined);
  const base = `${options.cssUrl.replace(/\/+$/, '')}/api/v1/objects/IBM`;
  const auth = { authorization: `Basic ${Buffer.from(options.credentials).toString('base64')}` };
  const call = async (method: string, url: string, body?: unknown, raw = false) => {
    const answer = await fetch(url, {
      method,
      headers: {
        ...auth,
        ...(body === undefined
          ? {}
          : { 'content-type': raw ? 'application/octet-stream' : 'application/json' }),
      },
      body: body === undefined ? undefined : raw ? (body as string) : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
    return answer;
  };
  const type = `agent_software_files-${options.version}`;
  const files: Published['files'] = [];
  for (const path of options.files) {
    const name = basename(path);
    const size = statSync(path).size;
    const sha256 = await sha256Of(path);
    const object = `${base}/${encodeURIComponent(type)}/${encodeURIComponent(name)}`;
    const { url } = (await (await call('GET', `${object}/upload`)).json()) as { url: string };
    // Straight to the store, streamed: S3 or the local store, never through a function.
    const upload = await fetch(url, {
      method: 'PUT',
      headers: { 'content-length': String(size) },
      body: Readable.toWeb(createReadStream(path)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (!upload.ok) throw new Error(`upload of ${name}: ${upload.status} ${await upload.text()}`);
    await call('PUT', object, {
      meta: {
        objectID: name,
        objectType: type,
        public: true,
        version: options.version,
        description: `${name} ${options.version}`,
      },
    });
    files.push({ name, size, sha256 });
    log(`published ${type}/${name} (${size} bytes, sha256 ${sha256})`);
  }
  const manifest: UpgradeManifest = {
    softwareUpgrade: {
      version: options.version,
      files: files.map((f) => f.name),
      sha256: Object.fromEntries(files.map((f) => [f.name, f.sha256])),
    },
  };
  const text = JSON.stringify(manifest);
  const manifestId = `agent-upgrade-${options.version}`;
  const object = `${base}/${MANIFEST_TYPE}/${encodeURIComponent(manifestId)}`;
  await call('PUT', object, {
    meta: {
      objectID: manifestId,
      objectType: MANIFEST_TYPE,
      public: true,
      version: options.version,
      hashAlgorithm: 'SHA256',
      publicKey: Buffer.from(options.publicKeyPem).toString('base64'),
      signature: signManifest(text, options.signingKey),
    },
  });
  await call('PUT', `${object}/data`, text, true);
  log(`published ${MANIFEST_TYPE}/${manifestId} (signed)`);
  return { manifestId: `IBM/${manifestId}`, bytes: files.reduce((sum, f) => sum + f.size, 0), files };
}
