/**
 * The message envelope of docs/protocol.md#envelope, as upstream anax builds it (exchange/messaging.go):
 *
 *   P  the protocol message (UTF-8 JSON)
 *   W  {"msg":b64(P),"signature":b64(RSA-PSS/SHA3-256 of P),"signerPubkey":b64(sender DER SPKI)}
 *   C  AES-256-GCM(W) with a fresh 32-byte key and 12-byte nonce, no AAD, tag after the ciphertext
 *   S  {"key":b64(key),"nonce":b64(nonce)}, RSA-OAEP/SHA3-256 (MGF1 too, empty label) to the receiver
 *   X  {"wrappedMessage":b64(C),"symmetricValues":b64(OAEP(S))}; the Exchange body's `message` is b64(X)
 *
 * Field names, their order and the base64 flavour are exactly Go's `encoding/json` output for
 * anax's structs, so upstream agents and agbots read what we write and we read theirs.
 */
import { constants } from 'node:crypto';
import * as z from 'zod';

export const HASH = 'sha3-256';
export const SYMMETRIC_KEY_BYTES = 32;
export const NONCE_BYTES = 12;
export const GCM_TAG_BYTES = 16;

/** Go signs with PSSSaltLengthAuto, i.e. the longest salt; it verifies any length. */
export const PSS_SIGN = {
  padding: constants.RSA_PKCS1_PSS_PADDING,
  saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
};
export const PSS_VERIFY = {
  padding: constants.RSA_PKCS1_PSS_PADDING,
  saltLength: constants.RSA_PSS_SALTLEN_AUTO,
};
/** node:crypto uses oaepHash for MGF1 as well, as Go's rsa.EncryptOAEP does. */
export const OAEP = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: HASH };

/** Go ignores unknown keys in all three layers; so do these (zod objects strip them). */
export const exchangeMessageLayer = z.object({ wrappedMessage: z.string(), symmetricValues: z.string() });
export const symmetricValuesLayer = z.object({ key: z.string(), nonce: z.string() });
export const wrappedMessageLayer = z.object({
  msg: z.string(),
  signature: z.string(),
  signerPubkey: z.string(),
});

/** Which layer failed, so a caller can log why a message was dropped without logging the message. */
export type EnvelopeLayer = 'envelope' | 'symmetric-values' | 'wrapped-message' | 'signature' | 'sender';

export class EnvelopeError extends Error {
  override name = 'EnvelopeError';
  constructor(
    readonly layer: EnvelopeLayer,
    message: string,
  ) {
    super(message);
  }
}

/** The message verifies, but its signer is not the key the Exchange holds for the sender. */
export class SenderKeyMismatchError extends EnvelopeError {
  override name = 'SenderKeyMismatchError';
  constructor() {
    super('sender', 'the message was signed by a key other than the sender key in the Exchange');
  }
}
