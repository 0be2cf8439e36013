import { createDecipheriv, type KeyObject, privateDecrypt, verify } from 'node:crypto';
import type * as z from 'zod';
import { fromBase64 } from './base64.ts';
import {
  EnvelopeError,
  type EnvelopeLayer,
  exchangeMessageLayer,
  GCM_TAG_BYTES,
  HASH,
  NONCE_BYTES,
  OAEP,
  PSS_VERIFY,
  SenderKeyMismatchError,
  symmetricValuesLayer,
  wrappedMessageLayer,
} from './envelope-format.ts';
import { KeyFormatError, publicKeyDer, publicKeyFromDer } from './keys.ts';

interface OpenedMessage {
  /** The protocol message P, as UTF-8 text (JSON for every Basic protocol message). */
  message: string;
  /** The verified signer key, equal to the expected sender key. */
  signerPublicKey: KeyObject;
}

/**
 * Decrypts and verifies an Exchange message (docs/protocol.md#envelope), then checks that the signer is
 * the sender the Exchange names: `expectedSenderPublicKey` is the message's `agbotPubKey` /
 * `nodePubKey` (the base64 string) or a key the caller fetched from the Exchange. Every failure
 * is an EnvelopeError naming its layer (SenderKeyMismatchError for the last check); upstream
 * deletes such a message without a reply.
 */
export function open(
  envelope: string,
  recipientPrivateKey: KeyObject,
  expectedSenderPublicKey: string | KeyObject,
): OpenedMessage {
  const outer = jsonLayer('envelope', bytesOf('envelope', envelope), exchangeMessageLayer);
  const ciphertext = nonEmptyBytes('envelope', outer.wrappedMessage);
  const wrappedKeys = nonEmptyBytes('envelope', outer.symmetricValues);

  const symmetric = jsonLayer(
    'symmetric-values',
    unwrapKeys(wrappedKeys, recipientPrivateKey),
    symmetricValuesLayer,
  );
  const key = nonEmptyBytes('symmetric-values', symmetric.key);
  const nonce = nonEmptyBytes('symmetric-values', symmetric.nonce);
  if (nonce.length !== NONCE_BYTES) throw new EnvelopeError('symmetric-values', 'the nonce is not 12 bytes');

  const wrapped = jsonLayer('wrapped-message', decrypt(ciphertext, key, nonce), wrappedMessageLayer);
  const message = bytesOf('wrapped-message', wrapped.msg);
  const signature = nonEmptyBytes('wrapped-message', wrapped.signature);
  const signerPublicKey = signerKey(nonEmptyBytes('wrapped-message', wrapped.signerPubkey));

  if (!verify(HASH, message, { key: signerPublicKey, ...PSS_VERIFY }, signature))
    throw new EnvelopeError('signature', 'the signature does not verify');
  // Like anax: the signer key, re-encoded as DER, must equal the Exchange's bytes exactly.
  if (!publicKeyDer(signerPublicKey).equals(expectedDer(expectedSenderPublicKey)))
    throw new SenderKeyMismatchError();
  return { message: message.toString('utf8'), signerPublicKey };
}

function bytesOf(layer: EnvelopeLayer, text: string): Buffer {
  const bytes = fromBase64(text);
  if (!bytes) throw new EnvelopeError(layer, 'a field is not base64');
  return bytes;
}

function nonEmptyBytes(layer: EnvelopeLayer, text: string): Buffer {
  const bytes = bytesOf(layer, text);
  if (bytes.length === 0) throw new EnvelopeError(layer, 'a required field is empty');
  return bytes;
}

function jsonLayer<T>(layer: EnvelopeLayer, bytes: Buffer, schema: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new EnvelopeError(layer, 'the layer is not JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new EnvelopeError(layer, 'the layer lacks a field or has one of the wrong type');
  return parsed.data;
}

function unwrapKeys(wrappedKeys: Buffer, recipientPrivateKey: KeyObject): Buffer {
  try {
    return privateDecrypt({ key: recipientPrivateKey, ...OAEP }, wrappedKeys);
  } catch {
    throw new EnvelopeError('symmetric-values', 'the symmetric key was not encrypted for this receiver');
  }
}

/** AES-GCM with the key length the sender chose (Go's aes.NewCipher takes 16, 24 or 32 bytes). */
const GCM_BY_KEY_LENGTH: Record<number, 'aes-128-gcm' | 'aes-192-gcm' | 'aes-256-gcm'> = {
  16: 'aes-128-gcm',
  24: 'aes-192-gcm',
  32: 'aes-256-gcm',
};

function decrypt(ciphertext: Buffer, key: Buffer, nonce: Buffer): Buffer {
  const algorithm = GCM_BY_KEY_LENGTH[key.length];
  if (!algorithm) throw new EnvelopeError('symmetric-values', 'bad symmetric key length');
  if (ciphertext.length < GCM_TAG_BYTES)
    throw new EnvelopeError('wrapped-message', 'the ciphertext is too short');
  try {
    const decipher = createDecipheriv(algorithm, key, nonce, { authTagLength: GCM_TAG_BYTES });
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - GCM_TAG_BYTES));
    return Buffer.concat([
      decipher.update(ciphertext.subarray(0, ciphertext.length - GCM_TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new EnvelopeError('wrapped-message', 'the message does not decrypt');
  }
}

function signerKey(der: Buffer): KeyObject {
  try {
    return publicKeyFromDer(der);
  } catch (err) {
    if (err instanceof KeyFormatError)
      throw new EnvelopeError('wrapped-message', `signerPubkey: ${err.message}`);
    throw err;
  }
}

function expectedDer(expected: string | KeyObject): Buffer {
  if (typeof expected !== 'string') return publicKeyDer(expected);
  const der = fromBase64(expected);
  if (!der || der.length === 0) throw new SenderKeyMismatchError();
  return der;
}
