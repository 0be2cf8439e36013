import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openWithKey, SecretIntegrityError, sealWithKey } from './envelope.ts';
import type { KeyProvider, SecretContext } from './key-provider.ts';

const MASTER_KEY_BYTES = 32;

/**
 * The local master key: 256 random bits, base64 in `file` (mode 0600), generated on first use and
 * reused after. A file that holds something else is refused rather than silently replaced, since
 * replacing it would make every stored secret unreadable.
 */
export function loadOrCreateMasterKey(file: string): Buffer {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text === undefined) {
    const key = randomBytes(MASTER_KEY_BYTES);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`${file} does not hold a 256-bit base64 master key`);
  return key;
}

/** A short, non-secret name of a master key, stored with each value (rotation finds the old ones). */
export const keyFingerprint = (masterKey: Buffer): string =>
  `local:${createHash('sha256').update(masterKey).digest('hex').slice(0, 16)}`;

/** Data keys wrapped with AES-256-GCM under the master key, bound to the secret like the value. */
export function localKeyProvider(masterKey: Buffer): KeyProvider {
  const keyId = keyFingerprint(masterKey);
  return {
    name: 'local',
    async generateDataKey(context: SecretContext) {
      const plaintext = randomBytes(32);
      const { iv, ciphertext, tag } = sealWithKey(masterKey, plaintext.toString('base64'), context);
      return { plaintext, wrapped: Buffer.concat([iv, tag, ciphertext]), keyId };
    },
    async unwrapDataKey(wrapped: Buffer, storedKeyId: string, context: SecretContext) {
      if (storedKeyId !== keyId || wrapped.length < 28) throw new SecretIntegrityError(context);
      const sealed = {
        iv: wrapped.subarray(0, 12),
        tag: wrapped.subarray(12, 28),
        ciphertext: wrapped.subarray(28),
      };
      return Buffer.from(openWithKey(masterKey, sealed, context), 'base64');
    },
  };
}
