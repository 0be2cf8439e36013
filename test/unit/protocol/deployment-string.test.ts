import { constants, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deploymentString, signDeployment, verifyDeployment } from '#lib/protocol/deployment-signature';

/** The deployment string and its RSA-PSS/SHA-256 signature (docs/hzn-behaviour.md#hzn-exchange-service-publish). */
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('deploymentString', () => {
  it("is Go's json.Marshal: compact, keys sorted at every level, <>& escaped, 1.0 → 1", () => {
    const deployment = {
      services: {
        web: { image: 'a/b:1<2>&3', ports: [{ b: 2, a: 1.0 }], environment: ['Z=1'] },
        api: { image: 'x' },
      },
    };
    expect(deploymentString(deployment)).toBe(
      '{"services":{"api":{"image":"x"},"web":{"environment":["Z=1"],"image":"a/b:1\\u003c2\\u003e\\u00263","ports":[{"a":1,"b":2}]}}}',
    );
  });
});

describe('sign and verify', () => {
  const text = deploymentString({ services: { s: { image: 'busybox:1' } } });

  it('a signature verifies with the public key, its PEM, and not with another key', () => {
    const signature = signDeployment(text, privateKey);
    expect(Buffer.from(signature, 'base64').length).toBe(256);
    expect(verifyDeployment(text, signature, publicKey)).toBe(true);
    expect(
      verifyDeployment(text, signature, publicKey.export({ type: 'spki', format: 'pem' }).toString()),
    ).toBe(true);
    expect(verifyDeployment(text, signature, other.publicKey)).toBe(false);
  });

  it('any change of the string or the signature fails', () => {
    const signature = signDeployment(text, privateKey);
    expect(verifyDeployment(text.replace('busybox:1', 'busybox:2'), signature, publicKey)).toBe(false);
    const bytes = Buffer.from(signature, 'base64');
    bytes[10] = (bytes[10] as number) ^ 1;
    expect(verifyDeployment(text, bytes.toString('base64'), publicKey)).toBe(false);
    expect(verifyDeployment(text, '', publicKey)).toBe(false);
    expect(verifyDeployment(text, 'not base64 !!', publicKey)).toBe(false);
    expect(verifyDeployment(text, signature, 'not a key')).toBe(false);
  });

  it('signs with the longest salt, yet a short-salt signature (another signer) verifies too', () => {
    const signature = signDeployment(text, privateKey);
    const strict = {
      key: createPublicKey(privateKey),
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 222,
    };
    // 2048-bit key, SHA-256: the maximum salt is 256 - 32 - 2 = 222 bytes.
    expect(verify('sha256', Buffer.from(text), strict, Buffer.from(signature, 'base64'))).toBe(true);
    const shortSalt = sign('sha256', Buffer.from(text), {
      key: privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    }).toString('base64');
    expect(verifyDeployment(text, shortSalt, publicKey)).toBe(true);
  });
});
