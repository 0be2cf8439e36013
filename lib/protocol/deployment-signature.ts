/**
 * The deployment signature (reference §2.2; anax rsapss-tool sign/verify): RSA-PSS with SHA-256
 * over the exact UTF-8 bytes of a service's `deployment` string, in standard base64. Go signs
 * with the longest salt (PSSSaltLengthAuto) and verifies any salt length; so do these. A
 * signature is accepted when any one of the trusted keys verifies it.
 */
import { constants, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { fromBase64, toBase64 } from './base64.ts';

const HASH = 'sha256';
const SIGN = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN };
const VERIFY = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO };

/** The base64 signature of `deployment` with an RSA private key (PEM: PKCS#1 or PKCS#8). */
export function signDeployment(deployment: string, privateKeyPem: string): string {
  return toBase64(sign(HASH, Buffer.from(deployment, 'utf8'), { key: privateKeyPem, ...SIGN }));
}

/**
 * Whether any of `publicKeysPem` (RSA public keys or self-signed certificates, PEM) verifies
 * `signatureBase64` over `deployment`. A key or signature that does not parse counts as no match.
 */
export function verifyDeployment(
  deployment: string,
  signatureBase64: string,
  publicKeysPem: readonly string[],
): boolean {
  const signature = fromBase64(signatureBase64.trim());
  if (!signature || signature.length === 0) return false;
  const data = Buffer.from(deployment, 'utf8');
  return publicKeysPem.some((pem) => {
    const key = rsaKey(pem);
    if (!key) return false;
    try {
      return verify(HASH, data, { key, ...VERIFY }, signature);
    } catch {
      return false;
    }
  });
}

/** createPublicKey also takes a certificate (its subject key) or a private key (its public half). */
function rsaKey(pem: string): KeyObject | undefined {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'rsa' ? key : undefined;
  } catch {
    return undefined;
  }
}
