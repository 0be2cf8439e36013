/**
 * The messaging key pair of an agent or agbot (docs/protocol.md#envelope): RSA-2048, published in the
 * Exchange as base64 of the DER SubjectPublicKeyInfo, kept on disk in upstream's PEM files
 * (`privateMessagingKey.pem` as PKCS#1 "RSA PRIVATE KEY", `publicMessagingKey.pem` as PKIX
 * "PUBLIC KEY"), so a key pair written by anax can be read here and the other way round.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import { fromBase64, toBase64 } from './base64.ts';

export const PRIVATE_KEY_FILE = 'privateMessagingKey.pem';
export const PUBLIC_KEY_FILE = 'publicMessagingKey.pem';
const MODULUS_BITS = 2048;

export class KeyFormatError extends Error {
  override name = 'KeyFormatError';
}

export interface MessagingKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

// 65537 is Go's rsa.GenerateKey exponent too.
const KEY_OPTIONS = { modulusLength: MODULUS_BITS, publicExponent: 0x10001 };

export const generateMessagingKeys = (): MessagingKeys => generateKeyPairSync('rsa', KEY_OPTIONS);

/** The same off the event loop (~150 ms of CPU): for a server that answers requests meanwhile. */
export const generateMessagingKeysAsync = (): Promise<MessagingKeys> =>
  promisify(generateKeyPair)('rsa', KEY_OPTIONS);

/** The public half of a key pair (a public key is returned as is). */
export const asPublicKey = (key: KeyObject): KeyObject =>
  key.type === 'private' ? createPublicKey(key) : key;

/** DER SubjectPublicKeyInfo of a public (or private) key: what the envelope carries as signerPubkey. */
export const publicKeyDer = (key: KeyObject): Buffer =>
  asPublicKey(key).export({ type: 'spki', format: 'der' });

/** The Exchange's `publicKey` string for this key (node PATCH, agbot PATCH). */
export const exchangePublicKey = (key: KeyObject): string => toBase64(publicKeyDer(key));

/** An RSA public key from DER SPKI bytes; anything else is a KeyFormatError. */
export function publicKeyFromDer(der: Uint8Array): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
  } catch {
    throw new KeyFormatError('not a DER SubjectPublicKeyInfo');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new KeyFormatError('not an RSA public key');
  return key;
}

/** The key behind an Exchange `publicKey` string (a node's, an agbot's, or a message's sender key). */
export function parseExchangePublicKey(text: string): KeyObject {
  const der = fromBase64(text);
  if (!der || der.length === 0) throw new KeyFormatError('the public key is not base64');
  return publicKeyFromDer(der);
}

export const privateKeyToPem = (key: KeyObject): string =>
  key.export({ type: 'pkcs1', format: 'pem' }).toString();

export const publicKeyToPem = (key: KeyObject): string =>
  asPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();

/** Reads `privateMessagingKey.pem` (PKCS#1 as upstream writes it; PKCS#8 is accepted as well). */
export function privateKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new KeyFormatError('not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new KeyFormatError('not an RSA private key');
  return key;
}

export function publicKeyFromPem(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new KeyFormatError('not a PEM public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new KeyFormatError('not an RSA public key');
  return key;
}
