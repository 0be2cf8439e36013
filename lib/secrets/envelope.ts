import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyProvider, SecretContext } from './key-provider.ts';

/**
 * Envelope encryption of one secret: a fresh 256-bit data key (from the key provider, which also
 * returns it wrapped) seals the plaintext with AES-256-GCM; the org and the secret's name are the
 * additional authenticated data, so a sealed value copied to another secret's item fails to open.
 */
export interface SealedValue {
  /** base64: the data key as the provider wrapped it. */
  dataKey: string;
  /** The provider's key id (KMS key ARN, or the local master key's fingerprint). */
  keyId: string;
  /** base64: 12-byte nonce, ciphertext, 16-byte tag. */
  iv: string;
  ciphertext: string;
  tag: string;
}

/** A value that does not open: moved, altered, or sealed under another key. Never carries the value. */
export class SecretIntegrityError extends Error {
  constructor(readonly context: SecretContext) {
    super(`secret '${context.org}/${context.name}' failed its integrity check`);
    this.name = 'SecretIntegrityError';
  }
}

const ALGORITHM = 'aes-256-gcm';
const additionalData = (context: SecretContext): Buffer =>
  Buffer.from(JSON.stringify([context.org, context.name]), 'utf8');

export function sealWithKey(key: Buffer, plaintext: string, context: SecretContext) {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(additionalData(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

/** Throws SecretIntegrityError when the tag does not match (wrong key, data or context). */
export function openWithKey(
  key: Buffer,
  sealed: { iv: Buffer; ciphertext: Buffer; tag: Buffer },
  context: SecretContext,
): string {
  try {
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv);
    decipher.setAAD(additionalData(context));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretIntegrityError(context);
  }
}

export async function seal(
  provider: KeyProvider,
  plaintext: string,
  context: SecretContext,
): Promise<SealedValue> {
  const dataKey = await provider.generateDataKey(context);
  try {
    const { iv, ciphertext, tag } = sealWithKey(dataKey.plaintext, plaintext, context);
    return {
      dataKey: dataKey.wrapped.toString('base64'),
      keyId: dataKey.keyId,
      iv: iv.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
      tag: tag.toString('base64'),
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

export async function open(
  provider: KeyProvider,
  sealed: SealedValue,
  context: SecretContext,
): Promise<string> {
  const key = await provider.unwrapDataKey(Buffer.from(sealed.dataKey, 'base64'), sealed.keyId, context);
  try {
    return openWithKey(
      key,
      {
        iv: Buffer.from(sealed.iv, 'base64'),
        ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
        tag: Buffer.from(sealed.tag, 'base64'),
      },
      context,
    );
  } finally {
    key.fill(0);
  }
}
