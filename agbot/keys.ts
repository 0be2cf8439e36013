import type { KeyObject } from 'node:crypto';
import {
  asPublicKey,
  exchangePublicKey,
  generateMessagingKeys,
  privateKeyFromPem,
  privateKeyToPem,
} from '#lib/protocol/keys';
import type { AgbotStore } from './store.ts';

const PRIVATE_KEY = 'messagingPrivateKey';

export interface AgbotKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** As published on the agbot's Exchange record: base64 of the DER SubjectPublicKeyInfo. */
  publishedPublicKey: string;
}

/**
 * The agbot's RSA-2048 messaging key pair (lib/protocol/keys.ts): created on first start, kept in
 * the store, the same on every later start (nodes check messages against the key they read from
 * the Exchange).
 */
export function messagingKeys(store: AgbotStore): AgbotKeys {
  let pem = store.getMeta(PRIVATE_KEY);
  if (pem === undefined) {
    pem = privateKeyToPem(generateMessagingKeys().privateKey);
    store.setMeta(PRIVATE_KEY, pem);
  }
  const privateKey = privateKeyFromPem(pem);
  const publicKey = asPublicKey(privateKey);
  return { privateKey, publicKey, publishedPublicKey: exchangePublicKey(publicKey) };
}
