import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AgbotStore } from './store.ts';

const PRIVATE_KEY = 'messagingPrivateKey';

export interface MessagingKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** As published on the agbot's Exchange record: base64 of the DER SubjectPublicKeyInfo. */
  publishedPublicKey: string;
}

/**
 * The agbot's RSA-2048 messaging key pair: created on first start, kept in the store, the same
 * on every later start (nodes check messages against the key they read from the Exchange).
 */
export function messagingKeys(store: AgbotStore): MessagingKeys {
  let pem = store.getMeta(PRIVATE_KEY);
  if (pem === undefined) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    store.setMeta(PRIVATE_KEY, pem);
  }
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    publicKey,
    publishedPublicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}
