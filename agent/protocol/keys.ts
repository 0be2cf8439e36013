/**
 * The node's messaging key pair (docs/protocol.md#envelope): upstream's two PEM files in the agent's data
 * dir, the private one mode 0600. Made on first use (off the event loop) and kept for the life of
 * the data dir, so a restart keeps the key the Exchange and the agbots know.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  asPublicKey,
  generateMessagingKeysAsync,
  type MessagingKeys,
  PRIVATE_KEY_FILE,
  PUBLIC_KEY_FILE,
  privateKeyFromPem,
  privateKeyToPem,
  publicKeyToPem,
} from '#lib/protocol/keys';

export async function loadOrCreateKeys(dataDir: string): Promise<MessagingKeys> {
  const privatePath = join(dataDir, PRIVATE_KEY_FILE);
  let pem: string | undefined;
  try {
    pem = readFileSync(privatePath, 'utf8');
  } catch {
    // none yet
  }
  if (pem !== undefined) {
    const privateKey = privateKeyFromPem(pem);
    return { privateKey, publicKey: asPublicKey(privateKey) };
  }
  const keys = await generateMessagingKeysAsync();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeAtomically(privatePath, privateKeyToPem(keys.privateKey), 0o600);
  writeAtomically(join(dataDir, PUBLIC_KEY_FILE), publicKeyToPem(keys.publicKey), 0o644);
  return keys;
}

function writeAtomically(path: string, text: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, path);
}
