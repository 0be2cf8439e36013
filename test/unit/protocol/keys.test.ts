import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  exchangePublicKey,
  generateMessagingKeys,
  generateMessagingKeysAsync,
  KeyFormatError,
  parseExchangePublicKey,
  privateKeyFromPem,
  privateKeyToPem,
  publicKeyFromPem,
  publicKeyToPem,
} from '#lib/protocol/keys';

describe('messaging keys', () => {
  const keys = generateMessagingKeys();

  it('are RSA-2048 with exponent 65537, made on or off the event loop', async () => {
    const details = { modulusLength: 2048, publicExponent: 65537n };
    expect(keys.privateKey.asymmetricKeyDetails).toMatchObject(details);
    const later = await generateMessagingKeysAsync();
    expect(later.publicKey.asymmetricKeyDetails).toMatchObject(details);
    expect(exchangePublicKey(later.publicKey)).not.toBe(exchangePublicKey(keys.publicKey));
  });

  it('are published as base64 (std, padded) of DER SubjectPublicKeyInfo, and read back', () => {
    const published = exchangePublicKey(keys.publicKey);
    const der = keys.publicKey.export({ type: 'spki', format: 'der' });
    expect(published).toBe(der.toString('base64'));
    expect(published).toMatch(/^MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A/); // the DER prefix of an RSA-2048 SPKI
    expect(exchangePublicKey(parseExchangePublicKey(published))).toBe(published);
    expect(exchangePublicKey(keys.privateKey)).toBe(published);
  });

  it('are kept in upstream PEM files: PKCS#1 "RSA PRIVATE KEY" and PKIX "PUBLIC KEY"', () => {
    const privatePem = privateKeyToPem(keys.privateKey);
    const publicPem = publicKeyToPem(keys.publicKey);
    expect(privatePem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(exchangePublicKey(privateKeyFromPem(privatePem))).toBe(exchangePublicKey(keys.publicKey));
    expect(exchangePublicKey(publicKeyFromPem(publicPem))).toBe(exchangePublicKey(keys.publicKey));
  });

  it('refuse what is not an RSA key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ecSpki = ec.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(() => parseExchangePublicKey(ecSpki)).toThrow(KeyFormatError);
    expect(() => parseExchangePublicKey('')).toThrow(KeyFormatError);
    expect(() => parseExchangePublicKey('MIIB IjAN')).toThrow(KeyFormatError);
    expect(() => parseExchangePublicKey(Buffer.from('junk').toString('base64'))).toThrow(KeyFormatError);
    expect(() =>
      privateKeyFromPem('-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\n'),
    ).toThrow(KeyFormatError);
    expect(() => publicKeyFromPem(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString())).toThrow(
      KeyFormatError,
    );
  });
});
