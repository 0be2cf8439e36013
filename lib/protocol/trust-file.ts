import { createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { firstPemBlock } from './pem-block.ts';

/** What a trust file holds: a signing certificate or a bare public key. */
export type TrustContent = { kind: 'cert'; cert: X509Certificate } | { kind: 'key'; key: KeyObject };

const MAX_VALIDITY_DAYS = 3653;

export class InvalidTrustFile extends Error {}

/**
 * Parses the first PEM block (upstream's rule): an X.509 certificate or an RSA public key. Any
 * problem throws InvalidTrustFile with upstream's wording where it has one.
 */
export function parseTrustFile(text: string): TrustContent {
  const block = firstPemBlock(text);
  if (!block) throw new InvalidTrustFile('Unable to find PEM block in the provided public key or cert');
  const { pem, label } = block;
  if (label === 'CERTIFICATE') {
    try {
      return { kind: 'cert', cert: new X509Certificate(pem) };
    } catch (err) {
      throw new InvalidTrustFile(`Unable to parse the certificate: ${(err as Error).message}`);
    }
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (err) {
    throw new InvalidTrustFile(
      `Unable to parse provided file as a public key.. InternalError: ${(err as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'rsa-pss')
    throw new InvalidTrustFile(
      `Unable to parse provided file as a public key: ${key.asymmetricKeyType} is not RSA`,
    );
  return { kind: 'key', key };
}

/**
 * Upstream's rules for a signing certificate, those node:crypto can check: valid now, at most ten
 * years of validity, a positive serial, not a CA, self-issued and self-signed, an RSA key.
 */
export function certificateProblem(cert: X509Certificate, nowMs: number): string | undefined {
  return timeProblem(validity(cert), nowMs) ?? lastingProblem(cert);
}

export interface Validity {
  from: number;
  to: number;
}

export const validity = (cert: X509Certificate): Validity => ({
  from: Date.parse(cert.validFrom),
  to: Date.parse(cert.validTo),
});

/** Whether the certificate is valid at `nowMs` (the only rule that changes with time). */
export function timeProblem({ from, to }: Validity, nowMs: number): string | undefined {
  const now = new Date(nowMs).toISOString();
  if (nowMs < from)
    return `Certificate invalid; current time ${now} before valid NotBefore time: ${iso(from)}`;
  if (nowMs > to) return `Certificate invalid; current time ${now} after valid NotAfter time: ${iso(to)}`;
  return undefined;
}

/** The rules that hold for the certificate's whole life (checked once per file). */
export function lastingProblem(cert: X509Certificate): string | undefined {
  const { from, to } = validity(cert);
  if (to - from > MAX_VALIDITY_DAYS * 86_400_000)
    return `Certificate invalid; validity period longer than ${MAX_VALIDITY_DAYS} days`;
  if (/^0*$/.test(cert.serialNumber)) return 'Certificate invalid; serial number must be positive';
  if (cert.ca) return 'Certificate invalid; cert is a CA which is not supported';
  if (cert.issuer !== cert.subject || !cert.verify(cert.publicKey))
    return 'Certificate invalid; certificate not self-issued';
  const type = cert.publicKey.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'rsa-pss')
    return `Certificate invalid; the key is ${type}, only RSA is supported`;
  return undefined;
}

/** `2020-01-09T17:50:21Z` */
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
