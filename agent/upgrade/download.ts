import type { KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compareVersions, isValidVersion } from '#lib/catalog/version-range';
import { MANIFEST_TYPE, manifestSignedBy, upgradeManifest } from '#lib/nmp/manifest';
import type { Credentials } from '../exchange/client.ts';
import { AGENT_VERSION } from '../ground/version.ts';
import type { NmpStatus } from '../nmp/store.ts';
import { StageFailure } from './failure.ts';

/** The executable of this agent's architecture, as `npm run publish-agent` names it. */
export const executableName = (arch: string = process.arch) => `horizon-agent-linux-${arch}`;

export interface DownloadInput {
  /** `<exchange>/v1/css` (HZN_FSS_CSSURL). */
  cssUrl: string;
  creds: Credentials;
  status: NmpStatus;
  /** Where this job's files go (`<working dir>/<org>/<nmp>`), emptied first. */
  dir: string;
  keys: readonly KeyObject[];
  signal: AbortSignal;
  arch?: string;
  currentVersion?: string;
}

export type DownloadResult =
  | { kind: 'none'; version: string; reason: string }
  | { kind: 'downloaded'; version: string; path: string; sha256: string; bytes: number };

/**
 * The download stage: the manifest (`<org>/<id>` of type agent_upgrade_manifests) and its
 * signature checked against the pinned keys, then this architecture's executable, hashed while it
 * is written and refused unless its SHA-256 is the manifest's. Nothing outside `dir` is touched.
 */
export async function downloadUpgrade(input: DownloadInput): Promise<DownloadResult> {
  const { status, keys } = input;
  const ref = status.agentUpgradeInternal.manifest;
  const slash = ref.indexOf('/');
  if (slash <= 0)
    throw new StageFailure('precheck failed', `the policy names no manifest as <org>/<id>: '${ref}'`);
  if (keys.length === 0)
    throw new StageFailure(
      'precheck failed',
      'no upgrade signing key is pinned on this device (HZN_AGENT_UPGRADE_KEYS)',
    );
  const base = `${input.cssUrl.replace(/\/+$/, '')}/api/v1/objects/${encodeURIComponent(ref.slice(0, slash))}/${MANIFEST_TYPE}/${encodeURIComponent(ref.slice(slash + 1))}`;
  const meta = (await getJson(input, base)) as { signature?: string };
  const text = await (await get(input, `${base}/data`)).text();
  if (!meta.signature || !manifestSignedBy(text, meta.signature, keys))
    throw new StageFailure('failed', `the manifest ${ref} is not signed by a key pinned on this device`);
  let manifest: ReturnType<typeof upgradeManifest.parse>;
  try {
    manifest = upgradeManifest.parse(JSON.parse(text));
  } catch {
    throw new StageFailure('precheck failed', `the manifest ${ref} is not an upgrade manifest`);
  }
  const stanza = manifest.softwareUpgrade;
  if (!stanza) return { kind: 'none', version: '', reason: 'the manifest upgrades no software' };
  const version = stanza.version;
  if (!isValidVersion(version))
    throw new StageFailure(
      'precheck failed',
      `software version '${version}': only an exact version is supported`,
    );
  const current = input.currentVersion ?? AGENT_VERSION;
  const order = compareVersions(version, current);
  if (order === 0) return { kind: 'none', version, reason: `the agent is already at ${version}` };
  if (order < 0 && !status.agentUpgradeInternal.allowDowngrade)
    return {
      kind: 'none',
      version,
      reason: `${version} is older than ${current} and the policy does not allow downgrades`,
    };
  const file = executableName(input.arch);
  const files = stanza.files ?? [];
  if (!files.includes(file) && !files.includes('*'))
    throw new StageFailure('precheck failed', `${file} is not listed in the manifest ${ref}`);
  const expected = stanza.sha256?.[file];
  if (!expected) throw new StageFailure('failed', `the manifest ${ref} gives no SHA-256 for ${file}`);

  await rm(input.dir, { recursive: true, force: true });
  await mkdir(input.dir, { recursive: true, mode: 0o700 });
  const path = join(input.dir, file);
  const part = `${path}.part`;
  const url = `${input.cssUrl.replace(/\/+$/, '')}/api/v1/objects/IBM/agent_software_files-${encodeURIComponent(version)}/${encodeURIComponent(file)}/data`;
  const response = await get(input, url);
  const hash = createHash('sha256');
  let bytes = 0;
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  body.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  await pipeline(body, createWriteStream(part, { mode: 0o700 }), { signal: input.signal });
  const sha256 = hash.digest('hex');
  if (sha256 !== expected) {
    await rm(part, { force: true });
    throw new StageFailure(
      'failed',
      `${file} ${version} does not match the manifest's SHA-256 (got ${sha256}): refused`,
    );
  }
  await chmod(part, 0o755);
  await rename(part, path);
  return { kind: 'downloaded', version, path, sha256, bytes };
}

async function get(input: DownloadInput, url: string): Promise<Response> {
  const { org, id, token } = input.creds;
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${org}/${id}:${token}`).toString('base64')}` },
    signal: input.signal,
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new StageFailure('failed', `GET ${new URL(url).pathname}: HTTP ${response.status}`);
  }
  return response;
}

const getJson = async (input: DownloadInput, url: string) => (await get(input, url)).json();
