import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { open, SecretIntegrityError, seal } from '#lib/secrets/envelope';
import {
  assertMasterKeyPrivate,
  loadOrCreateMasterKey,
  localKeyProvider,
  MasterKeyModeError,
} from '#lib/secrets/local-key-provider';
import { providerFromEnv } from '#lib/secrets/provider';
import { tempDir } from '#test/support/temp-dir';

const tempFile = () => join(tempDir('master-key-'), 'sub', 'secrets-master-key');

describe('the local master key', () => {
  it('is 256 random bits, written on first use with mode 0600, and the same on every later load', () => {
    const file = tempFile();
    const first = loadOrCreateMasterKey(file);
    expect(first.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateMasterKey(file)).toEqual(first);
    expect(loadOrCreateMasterKey(tempFile())).not.toEqual(first);
  });

  it('refuses a file that does not hold a key, rather than replacing it', () => {
    const file = tempFile();
    loadOrCreateMasterKey(file);
    writeFileSync(file, 'short');
    expect(() => loadOrCreateMasterKey(file)).toThrow('does not hold a 256-bit base64 master key');
    expect(readFileSync(file, 'utf8')).toBe('short');
  });

  it('refuses a key file readable by group or others, naming the file and the chmod that fixes it', () => {
    const file = tempFile();
    const key = loadOrCreateMasterKey(file);
    for (const mode of [0o640, 0o604, 0o644, 0o660, 0o606, 0o610, 0o601]) {
      chmodSync(file, mode);
      const octal = mode.toString(8);
      const line = `${file} is readable by group or others (mode ${octal}); fix it with: chmod 600 ${file}`;
      expect(() => loadOrCreateMasterKey(file), octal).toThrow(new MasterKeyModeError(file, mode));
      expect(() => loadOrCreateMasterKey(file), octal).toThrow(line);
      expect(() => assertMasterKeyPrivate(file), octal).toThrow(line);
    }
    for (const mode of [0o600, 0o400]) {
      chmodSync(file, mode);
      expect(loadOrCreateMasterKey(file)).toEqual(key);
      expect(() => assertMasterKeyPrivate(file)).not.toThrow();
    }
    // No file yet: nothing to refuse (the key is generated 0600 on first use).
    expect(() => assertMasterKeyPrivate(tempFile())).not.toThrow();
  });

  it('is what the environment picks unless EXCHANGE_SECRETS_PROVIDER=kms (and never under serverless-offline)', () => {
    const file = tempFile();
    const env = { EXCHANGE_SECRETS_MASTER_KEY_FILE: file };
    expect(providerFromEnv(env).name).toBe('local');
    expect(providerFromEnv({ ...env, EXCHANGE_SECRETS_PROVIDER: 'kms', IS_OFFLINE: 'true' }).name).toBe(
      'local',
    );
    expect(
      providerFromEnv({ ...env, EXCHANGE_SECRETS_PROVIDER: 'kms', EXCHANGE_SECRETS_KMS_KEY_ID: 'k' }).name,
    ).toBe('kms');
    expect(() => providerFromEnv({ EXCHANGE_SECRETS_PROVIDER: 'kms' })).toThrow(
      'EXCHANGE_SECRETS_KMS_KEY_ID',
    );
  });
});

describe('the local envelope', () => {
  const provider = localKeyProvider(loadOrCreateMasterKey(tempFile()));
  const context = { org: 'o', name: 'a/b' };

  it('round-trips, with a fresh data key and nonce per value, and no plaintext in the sealed form', async () => {
    const one = await seal(provider, 'MARKER-value', context);
    const two = await seal(provider, 'MARKER-value', context);
    expect(await open(provider, one, context)).toBe('MARKER-value');
    expect(one.dataKey).not.toBe(two.dataKey);
    expect(one.ciphertext).not.toBe(two.ciphertext);
    expect(JSON.stringify(one)).not.toContain('MARKER');
  });

  it('fails with SecretIntegrityError under another org or name, a flipped bit, or another master key', async () => {
    const sealed = await seal(provider, 'v', context);
    await expect(open(provider, sealed, { org: 'o', name: 'a/c' })).rejects.toBeInstanceOf(
      SecretIntegrityError,
    );
    await expect(open(provider, sealed, { org: 'p', name: 'a/b' })).rejects.toBeInstanceOf(
      SecretIntegrityError,
    );
    const bytes = Buffer.from(sealed.ciphertext, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const flipped = { ...sealed, ciphertext: bytes.toString('base64') };
    await expect(open(provider, flipped, context)).rejects.toBeInstanceOf(SecretIntegrityError);
    const other = localKeyProvider(loadOrCreateMasterKey(tempFile()));
    await expect(open(other, sealed, context)).rejects.toBeInstanceOf(SecretIntegrityError);
  });

  it('an integrity error names the secret, never the value', async () => {
    const sealed = await seal(provider, 'SECRET-VALUE-XYZ', context);
    const error = await open(provider, sealed, { org: 'o', name: 'z' }).catch((e: Error) => e);
    expect(String(error)).not.toContain('SECRET-VALUE-XYZ');
  });
});
