import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangePublicKey, publicKeyFromPem } from '#lib/protocol/keys';
import { tempDir } from '../test-support/harness.ts';
import { loadOrCreateKeys } from './keys.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe('the node messaging keys', () => {
  it('are made once, in upstream files (private 0600, PKCS#1), and read back the same', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const first = await loadOrCreateKeys(dir.path);
    const privatePath = join(dir.path, 'privateMessagingKey.pem');
    expect(statSync(privatePath).mode & 0o777).toBe(0o600);
    expect(readFileSync(privatePath, 'utf8')).toContain('-----BEGIN RSA PRIVATE KEY-----');
    const published = publicKeyFromPem(readFileSync(join(dir.path, 'publicMessagingKey.pem'), 'utf8'));
    expect(exchangePublicKey(published)).toBe(exchangePublicKey(first.publicKey));
    const again = await loadOrCreateKeys(dir.path);
    expect(exchangePublicKey(again.publicKey)).toBe(exchangePublicKey(first.publicKey));
    expect(first.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });
});
