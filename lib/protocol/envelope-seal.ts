import { createCipheriv, type KeyObject, publicEncrypt, randomBytes, sign } from 'node:crypto';
import { toBase64 } from './base64.ts';
import { HASH, NONCE_BYTES, OAEP, PSS_SIGN, SYMMETRIC_KEY_BYTES } from './envelope-format.ts';
import { publicKeyDer } from './keys.ts';

/**
 * Signs `message` with the sender's private key and encrypts it for the recipient (docs/protocol.md#envelope; the
 * layers are described in envelope-format.ts). Returns the string for the Exchange body's
 * `message` field (`POST .../msgs {"message": <this>, "ttl": N}`).
 */
export function seal(
  message: string | Uint8Array,
  senderPrivateKey: KeyObject,
  recipientPublicKey: KeyObject,
): string {
  const plain = typeof message === 'string' ? Buffer.from(message, 'utf8') : Buffer.from(message);
  if (plain.length === 0) throw new Error('an empty message cannot be sealed');

  const signature = sign(HASH, plain, { key: senderPrivateKey, ...PSS_SIGN });
  const wrapped = JSON.stringify({
    msg: toBase64(plain),
    signature: toBase64(signature),
    signerPubkey: toBase64(publicKeyDer(senderPrivateKey)),
  });

  const key = randomBytes(SYMMETRIC_KEY_BYTES);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const encrypted = Buffer.concat([cipher.update(wrapped, 'utf8'), cipher.final(), cipher.getAuthTag()]);

  const symmetricValues = JSON.stringify({ key: toBase64(key), nonce: toBase64(nonce) });
  const wrappedKeys = publicEncrypt(
    { key: recipientPublicKey, ...OAEP },
    Buffer.from(symmetricValues, 'utf8'),
  );

  const exchangeMessage = JSON.stringify({
    wrappedMessage: toBase64(encrypted),
    symmetricValues: toBase64(wrappedKeys),
  });
  return toBase64(Buffer.from(exchangeMessage, 'utf8'));
}
