import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDeployment, verifyDeployment } from '#lib/protocol/deployment-signature';
import { makeCert } from '../../../agent/test-support/certs.ts';

const pair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });

describe('deployment signature (RSA-PSS SHA-256 over the deployment string)', () => {
  const signer = pair();
  const other = pair();
  const deployment = '{"services":{"web":{"image":"busybox:1","environment":["A=é"]}}}';

  it('verifies with the signing key among other keys, and with no other key', () => {
    const signature = signDeployment(deployment, signer.privateKey);
    expect(signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(verifyDeployment(deployment, signature, [other.publicKey, signer.publicKey])).toBe(true);
    expect(verifyDeployment(deployment, signature, [other.publicKey])).toBe(false);
    expect(verifyDeployment(deployment, signature, [])).toBe(false);
  });

  it('fails for a changed deployment (one byte), a damaged signature, or garbage keys', () => {
    const signature = signDeployment(deployment, signer.privateKey);
    expect(verifyDeployment(deployment.replace('1', '2'), signature, [signer.publicKey])).toBe(false);
    const damaged = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(verifyDeployment(deployment, damaged, [signer.publicKey])).toBe(false);
    expect(verifyDeployment(deployment, 'not base64!', [signer.publicKey])).toBe(false);
    expect(verifyDeployment(deployment, '', [signer.publicKey])).toBe(false);
    expect(
      verifyDeployment(deployment, signature, ['-----BEGIN PUBLIC KEY-----\nxx\n', signer.publicKey]),
    ).toBe(true);
  });

  it('accepts a salt of any length, as Go verifies (a 32-byte salt, as other signers use)', () => {
    const signature = sign('sha256', Buffer.from(deployment), {
      key: signer.privateKey,
      padding: constants.RSA_PKCS1_PSS_PADDING,
      saltLength: 32,
    }).toString('base64');
    expect(verifyDeployment(deployment, signature, [signer.publicKey])).toBe(true);
  });

  it('is not PKCS#1 v1.5: a v1.5 signature of the same bytes is refused', () => {
    const v15 = sign('sha256', Buffer.from(deployment), signer.privateKey).toString('base64');
    expect(verifyDeployment(deployment, v15, [signer.publicKey])).toBe(false);
  });

  it('takes a self-signed certificate as a trusted key (the trust store holds both kinds)', () => {
    const { cert, privateKey } = makeCert();
    expect(verifyDeployment(deployment, signDeployment(deployment, privateKey), [cert])).toBe(true);
  });
});
