/**
 * The signed deployment of a service (docs/protocol.md#deployment-signature; anax rsapss-tool sign/verify;
 * docs/hzn-behaviour.md#hzn-exchange-service-publish): the deployment string is Go's json.Marshal of the deployment object (compact, keys sorted
 * at every level, `<>&` escaped) and its signature is RSASSA-PSS over SHA-256 of its exact UTF-8
 * bytes, standard base64. Go signs with the longest salt and verifies any salt length; so do these.
 * `hzn exchange service publish` signs; the agent verifies against the keys it trusts.
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { fromBase64 } from './base64.ts';
import { PSS_SIGN, PSS_VERIFY } from './envelope-format.ts';
import { goJsonStringify } from './go-json.ts';

const HASH = 'sha256';

/** Objects rebuilt with sorted keys, as Go marshals a map[string]interface{}. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** The exact string that is signed and stored as the service's `deployment`. */
export const deploymentString = (deployment: unknown): string => goJsonStringify(sortedKeys(deployment));

/** The base64 signature of `deployment` with an RSA private key (KeyObject, or PEM: PKCS#1 or PKCS#8). */
export const signDeployment = (deployment: string, privateKey: KeyObject | string): string =>
  sign(HASH, Buffer.from(deployment, 'utf8'), {
    key: typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey,
    ...PSS_SIGN,
  }).toString('base64');

type PublicKeyInput = KeyObject | string;

/**
 * Whether any of `publicKeys` (KeyObjects, or PEM text of RSA public keys or X.509 certificates,
 * what `hzn key create` writes) verifies `signatureBase64` over `deployment`. A key or signature
 * that does not parse counts as no match.
 */
export function verifyDeployment(
  deployment: string,
  signatureBase64: string,
  publicKeys: PublicKeyInput | readonly PublicKeyInput[],
): boolean {
  const signature = fromBase64(signatureBase64.trim());
  if (!signature || signature.length === 0) return false;
  const data = Buffer.from(deployment, 'utf8');
  const candidates: readonly PublicKeyInput[] = Array.isArray(publicKeys)
    ? publicKeys
    : [publicKeys as PublicKeyInput];
  return candidates.some((candidate) => {
    const key = rsaKey(candidate);
    if (!key) return false;
    try {
      return verify(HASH, data, { key, ...PSS_VERIFY }, signature);
    } catch {
      return false;
    }
  });
}

/** createPublicKey also takes a certificate (its subject key) or a private key (its public half). */
function rsaKey(input: PublicKeyInput): KeyObject | undefined {
  try {
    const key = typeof input === 'string' ? createPublicKey(input) : input;
    return key.asymmetricKeyType === 'rsa' ? key : undefined;
  } catch {
    return undefined;
  }
}
