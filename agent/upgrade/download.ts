import type { KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  compareVersions,
  isValidVersion,
  isValidVersionRange,
  versionInRange,
} from '#lib/catalog/version-range';
import { MANIFEST_TYPE, manifestSignedBy, type UpgradeManifest, upgradeManifest } from '#lib/nmp/manifest';
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
 * is written and refused unless its SHA-256 is the manifest's. A manifest naming `latest` or a
 * version range gets the newest published version within it, with the SHA-256 of that version's
 * own manifest (`IBM/agent-upgrade-<v>`, which `npm run publish-agent` signs), checked against the
 * pinned keys too. Nothing outside `dir` is touched.
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
  const manifest = await signedManifest(input, ref.slice(0, slash), ref.slice(slash + 1));
  const stanza = manifest.softwareUpgrade;
  if (!stanza) return { kind: 'none', version: '', reason: 'the manifest upgrades no software' };
  const { version, sha256: sums } = await resolveVersion(input, stanza.version, stanza.sha256);
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
  const expected = sums?.[file];
  if (!expected)
    throw new StageFailure('failed', `the manifest ${ref} gives no SHA-256 for ${file} ${version}`);

  await rm(input.dir, { recursive: true, force: true });
  await mkdir(input.dir, { recursive: true, mode: 0o700 });
  const path = join(input.dir, file);
  const part = `${path}.part`;
  const url = `${objects(input, PUBLISHER_ORG)}/agent_software_files-${encodeURIComponent(version)}/${encodeURIComponent(file)}/data`;
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

const objects = (input: DownloadInput, org: string) =>
  `${input.cssUrl.replace(/\/+$/, '')}/api/v1/objects/${encodeURIComponent(org)}`;

/** A manifest of the object store, its signature checked against the pinned keys first. */
async function signedManifest(input: DownloadInput, org: string, id: string): Promise<UpgradeManifest> {
  const base = `${objects(input, org)}/${MANIFEST_TYPE}/${encodeURIComponent(id)}`;
  const meta = (await getJson(input, base)) as { signature?: string };
  const text = await (await get(input, `${base}/data`)).text();
  if (!meta.signature || !manifestSignedBy(text, meta.signature, input.keys))
    throw new StageFailure(
      'failed',
      `the manifest ${org}/${id} is not signed by a key pinned on this device`,
    );
  try {
    return upgradeManifest.parse(JSON.parse(text));
  } catch {
    throw new StageFailure('precheck failed', `the manifest ${org}/${id} is not an upgrade manifest`);
  }
}

/**
 * The version a manifest's software stanza names and the SHA-256 of its files: an exact version
 * with the stanza's own sums; `latest` or a range, the newest version published within it
 * (IBM's manifests `agent-upgrade-<v>`) with the sums of that version's signed manifest.
 */
async function resolveVersion(
  input: DownloadInput,
  wanted: string,
  sha256: Record<string, string> | undefined,
): Promise<{ version: string; sha256: Record<string, string> | undefined }> {
  if (isValidVersion(wanted)) return { version: wanted, sha256 };
  const latest = wanted.trim().toLowerCase() === 'latest';
  if (!latest && !isValidVersionRange(wanted))
    throw new StageFailure(
      'precheck failed',
      `software version '${wanted}' is not a version, a range or latest`,
    );
  const listed = await get(input, `${objects(input, PUBLISHER_ORG)}/${MANIFEST_TYPE}`, [404]);
  const published = (listed.status === 404 ? [] : ((await listed.json()) as { objectID?: string }[]))
    .map((meta) => PUBLISHED.exec(meta.objectID ?? '')?.[1] ?? '')
    .filter((v) => isValidVersion(v) && (latest || versionInRange(v, wanted)))
    .sort(compareVersions);
  const version = published.at(-1);
  if (version === undefined)
    throw new StageFailure('precheck failed', `no published agent version is within '${wanted}'`);
  const own = await signedManifest(input, PUBLISHER_ORG, `agent-upgrade-${version}`);
  if (own.softwareUpgrade?.version !== version)
    throw new StageFailure(
      'failed',
      `the manifest ${PUBLISHER_ORG}/agent-upgrade-${version} is not version ${version}'s`,
    );
  return { version, sha256: own.softwareUpgrade.sha256 };
}

/** Where `npm run publish-agent` publishes (scripts/publish-agent-files.ts): IBM's public objects. */
const PUBLISHER_ORG = 'IBM';
const PUBLISHED = /^agent-upgrade-(.+)$/;

async function get(input: DownloadInput, url: string, alsoOk: number[] = []): Promise<Response> {
  const { org, id, token } = input.creds;
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${org}/${id}:${token}`).toString('base64')}` },
    signal: input.signal,
  });
  if (!response.ok && !alsoOk.includes(response.status)) {
    await response.body?.cancel();
    const transient = response.status >= 500 || response.status === 429;
    throw new StageFailure('failed', `GET ${new URL(url).pathname}: HTTP ${response.status}`, transient);
  }
  return response;
}

const getJson = async (input: DownloadInput, url: string) => (await get(input, url)).json();
