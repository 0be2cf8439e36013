import type { KeyObject } from 'node:crypto';
import * as z from 'zod';
import { signDeployment, verifyDeployment } from '#lib/protocol/deployment-signature';

/**
 * An agent upgrade manifest (docs/nmp.md#manifests): upstream's three optional stanzas, each a
 * version (exact, `latest`, or a range) and the files to fetch (`*` for all), plus our extension
 * `sha256`, the SHA-256 of each file by name, which upstream's agents ignore (Go drops unknown
 * fields) and ours require before anything is swapped.
 */
const stanza = z.object({
  version: z.string().max(256),
  files: z.array(z.string().max(512)).max(100).nullish(),
  sha256: z
    .record(z.string().max(512), z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'))
    .optional(),
});
export type ManifestStanza = z.infer<typeof stanza>;

export const upgradeManifest = z.object({
  softwareUpgrade: stanza.nullish(),
  certificateUpgrade: stanza.nullish(),
  configurationUpgrade: stanza.nullish(),
});
export type UpgradeManifest = z.infer<typeof upgradeManifest>;

/** The object type of upgrade manifests, and the kinds of agent files with their stanza. */
export const MANIFEST_TYPE = 'agent_upgrade_manifests';
export const STANZAS = [
  ['softwareUpgrade', 'agent_software_files'],
  ['certificateUpgrade', 'agent_cert_files'],
  ['configurationUpgrade', 'agent_config_files'],
] as const;

/**
 * The manifest's signature: RSA-PSS with SHA-256 over its exact bytes (the scheme deployments are
 * signed with, lib/protocol/deployment-signature.ts), base64. It travels in the object's metadata
 * (`hashAlgorithm: SHA256`, `signature`, `publicKey`) as upstream's `hzn nm manifest add` puts it.
 */
export const signManifest = (text: string, privateKey: KeyObject | string): string =>
  signDeployment(text, privateKey);

/** Whether one of the keys pinned at install time signed these bytes (never the key the metadata carries). */
export const manifestSignedBy = (
  text: string,
  signature: string,
  pinned: readonly (KeyObject | string)[],
): boolean => pinned.length > 0 && verifyDeployment(text, signature, pinned);
