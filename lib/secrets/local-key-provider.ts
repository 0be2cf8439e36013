import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openWithKey, SecretIntegrityError, sealWithKey } from './envelope.ts';
import type { KeyProvider, SecretContext } from './key-provider.ts';

const MASTER_KEY_BYTES = 32;

/** Permission bits of group and others: any of them set lets another account read (or write) the key. */
const SHARED_BITS = 0o077;

/** A master key file that accounts other than its owner may read: one line, with the fix. */
export class MasterKeyModeError extends Error {
  override name = 'MasterKeyModeError';
  constructor(file: string, mode: number) {
    const octal = (mode & 0o777).toString(8).padStart(3, '0');
    super(`${file} is readable by group or others (mode ${octal}); fix it with: chmod 600 ${file}`);
  }
}

/**
 * Throws MasterKeyModeError when `file` exists with any group or other permission bit. Whoever can
 * read the key can read every stored secret, so a shared key is refused, not used silently.
 */
export function assertMasterKeyPrivate(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (mode & SHARED_BITS) throw new MasterKeyModeError(file, mode);
}

/** The text of the key file, or undefined when there is none; its mode is checked on the same open file. */
function readPrivateKeyFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { mode } = fstatSync(fd);
    if (mode & SHARED_BITS) throw new MasterKeyModeError(file, mode);
    return readFileSync(fd, 'utf8').trim();
  } finally {
    closeSync(fd);
  }
}

/**
 * The local master key: 256 random bits, base64 in `file` (mode 0600), generated on first use and
 * reused after. A file that holds something else is refused rather than silently replaced, since
 * replacing it would make every stored secret unreadable; so is a file readable by group or others
 * (MasterKeyModeError names the `chmod` that fixes it).
 */
export function loadOrCreateMasterKey(file: string): Buffer {
  const text = readPrivateKeyFile(file);
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
const keyFingerprint = (masterKey: Buffer): string =>
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
