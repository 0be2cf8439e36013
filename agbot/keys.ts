import type { KeyObject } from 'node:crypto';
import type { AgbotStore } from '#lib/agbot-store/contract';
import {
  asPublicKey,
  exchangePublicKey,
  generateMessagingKeys,
  privateKeyFromPem,
  privateKeyToPem,
} from '#lib/protocol/keys';

export interface AgbotKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** As published on the agbot's Exchange record: base64 of the DER SubjectPublicKeyInfo. */
  publishedPublicKey: string;
}

/**
 * The agbot's RSA-2048 messaging key pair (lib/protocol/keys.ts): created on first start, kept in
 * the store, the same on every later start (nodes check messages against the key they read from
 * the Exchange). Two first starts at once keep the key of whichever stored it first.
 */
export async function messagingKeys(store: AgbotStore): Promise<AgbotKeys> {
  const pem =
    (await store.messagingKey()) ??
    (await store.keepMessagingKey(privateKeyToPem(generateMessagingKeys().privateKey)));
  const privateKey = privateKeyFromPem(pem);
  const publicKey = asPublicKey(privateKey);
  return { privateKey, publicKey, publishedPublicKey: exchangePublicKey(publicKey) };
}
