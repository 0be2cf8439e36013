/**
 * The envelope of docs/protocol.md#envelope written out step by step with node:crypto alone, independent of
 * lib/protocol's seal/open, so the tests compare our code with the description rather than with
 * itself. Each step is a function so a test can change one layer (tamper) and keep the others.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  type KeyObject,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64');
const spki = (key: KeyObject) =>
  (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });

/** Step 1: RSA-PSS over SHA3-256 of P, MGF1 SHA3-256; `saltLength` defaults to Go's longest salt. */
export const signByHand = (message: Buffer, sender: KeyObject, saltLength: number = 256 - 32 - 2) =>
  sign('sha3-256', message, { key: sender, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength });

export interface Layers {
  message: Buffer;
  signature: Buffer;
  signerPubkey: Buffer;
  key: Buffer;
  nonce: Buffer;
}

export function layersFor(message: string, sender: KeyObject): Layers {
  const bytes = Buffer.from(message, 'utf8');
  return {
    message: bytes,
    signature: signByHand(bytes, sender),
    signerPubkey: spki(sender),
    key: randomBytes(32),
    nonce: randomBytes(12),
  };
}

/** Steps 2-5: W, AES-256-GCM (tag appended), S, RSA-OAEP SHA3-256, X, base64. */
export function buildByHand(
  layers: Layers,
  recipient: KeyObject,
  edit: (x: Record<string, string>) => void = () => {},
) {
  const w = JSON.stringify({
    msg: b64(layers.message),
    signature: b64(layers.signature),
    signerPubkey: b64(layers.signerPubkey),
  });
  const cipher = createCipheriv(
    `aes-${layers.key.length * 8}-gcm` as 'aes-256-gcm',
    layers.key,
    layers.nonce,
  );
  const c = Buffer.concat([cipher.update(w, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const s = JSON.stringify({ key: b64(layers.key), nonce: b64(layers.nonce) });
  const e = publicEncrypt(
    { key: recipient, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha3-256' },
    Buffer.from(s),
  );
  const x: Record<string, string> = { wrappedMessage: b64(c), symmetricValues: b64(e) };
  edit(x);
  return b64(Buffer.from(JSON.stringify(x)));
}

/** The receiving steps of docs/protocol.md#envelope, each layer kept so a test can look at its exact JSON. */
export function decodeByHand(envelope: string, recipient: KeyObject) {
  const xText = unb64(envelope).toString('utf8');
  const x = JSON.parse(xText);
  const sText = privateDecrypt(
    { key: recipient, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha3-256' },
    unb64(x.symmetricValues),
  ).toString('utf8');
  const s = JSON.parse(sText);
  const key = unb64(s.key);
  const nonce = unb64(s.nonce);
  const c = unb64(x.wrappedMessage);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAuthTag(c.subarray(c.length - 16));
  const wText = Buffer.concat([decipher.update(c.subarray(0, c.length - 16)), decipher.final()]).toString(
    'utf8',
  );
  const w = JSON.parse(wText);
  const message = unb64(w.msg);
  const signer = createPublicKey({ key: unb64(w.signerPubkey), format: 'der', type: 'spki' });
  const signature = unb64(w.signature);
  const verifies = (saltLength: number) =>
    verify(
      'sha3-256',
      message,
      { key: signer, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength },
      signature,
    );
  return {
    xText,
    sText,
    wText,
    key,
    nonce,
    message: message.toString('utf8'),
    signerDer: unb64(w.signerPubkey),
    verifies,
  };
}
