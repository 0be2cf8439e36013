import type { TrustStore } from '../trust/store.ts';

/**
 * The PEM texts the deployment signature is checked against (docs/protocol.md#deployment-signature): every public key
 * and self-signed certificate of the trust store that validates now (`PUT /trust/<name>.pem`).
 */
export const trustedKeys = (trust: TrustStore): string[] =>
  trust.list().flatMap((name) => {
    const text = trust.read(name);
    return text ? [text] : [];
  });
