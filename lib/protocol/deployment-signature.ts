/**
 * The signed deployment of a service (hzn reference §4.2, rsapss-tool sign/verify): the deployment
 * string is Go's json.Marshal of the deployment object (compact, keys sorted at every level, `<>&`
 * escaped) and its signature is RSASSA-PSS over SHA-256 with the longest salt, standard base64.
 * `hzn exchange service publish` signs with it; the agent verifies a service's `deploymentSignature`
 * against the keys stored with the service (or its trust store) with the same helper.
 */
import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
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

/** base64 RSA-PSS/SHA-256 signature of the UTF-8 bytes of `deployment`. */
export const signDeployment = (deployment: string, privateKey: KeyObject): string =>
  sign(HASH, Buffer.from(deployment, 'utf8'), { key: privateKey, ...PSS_SIGN }).toString('base64');

/**
 * Whether `signature` signs `deployment` with the key in `publicKey`: a KeyObject, or PEM text of a
 * public key or of an X.509 certificate (what `hzn key create` writes). Any salt length verifies,
 * as Go's verifier accepts. A malformed key or signature is simply "does not verify".
 */
export function verifyDeployment(
  deployment: string,
  signature: string,
  publicKey: KeyObject | string,
): boolean {
  try {
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    const bytes = Buffer.from(signature, 'base64');
    if (bytes.length === 0) return false;
    return verify(HASH, Buffer.from(deployment, 'utf8'), { key, ...PSS_VERIFY }, bytes);
  } catch {
    return false;
  }
}
