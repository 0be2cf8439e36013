import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EnvelopeError, SenderKeyMismatchError } from '#lib/protocol/envelope-format';
import { open } from '#lib/protocol/envelope-open';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, privateKeyFromPem } from '#lib/protocol/keys';
import { buildByHand, decodeByHand, layersFor, signByHand } from './by-hand.ts';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const PROPOSAL = JSON.stringify({
  type: 'proposal',
  protocol: 'Basic',
  version: 1,
  agreementId: 'a'.repeat(64),
  tsandcs: '{"header":{"name":"p","version":"2.0"}}',
  producerPolicy: '{"header":{"name":"n","version":"2.0"}}',
  consumerId: 'IBM/agbot',
});

let agbot: { privateKey: KeyObject; publicKey: KeyObject };
let node: { privateKey: KeyObject; publicKey: KeyObject };
let stranger: { privateKey: KeyObject; publicKey: KeyObject };
beforeAll(() => {
  agbot = pair();
  node = pair();
  stranger = pair();
});

const layer = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(EnvelopeError);
    return (err as EnvelopeError).layer;
  }
  throw new Error('expected an EnvelopeError');
};

describe('open() reads envelopes built by hand from docs/protocol.md#envelope', () => {
  it('accepts a message built layer by layer, checking the sender against its Exchange key', () => {
    const envelope = buildByHand(layersFor(PROPOSAL, agbot.privateKey), node.publicKey);
    const opened = open(envelope, node.privateKey, exchangePublicKey(agbot.publicKey));
    expect(opened.message).toBe(PROPOSAL);
    expect(exchangePublicKey(opened.signerPublicKey)).toBe(exchangePublicKey(agbot.publicKey));
  });

  it('accepts any PSS salt length, as Go verifies with PSSSaltLengthAuto', () => {
    const layers = layersFor(PROPOSAL, agbot.privateKey);
    for (const salt of [0, 32]) {
      layers.signature = signByHand(layers.message, agbot.privateKey, salt);
      expect(open(buildByHand(layers, node.publicKey), node.privateKey, agbot.publicKey).message).toBe(
        PROPOSAL,
      );
    }
  });

  it('opens an envelope made by a second implementation (Python cryptography, fixtures/envelope-vector.json)', () => {
    const vector = JSON.parse(
      readFileSync(new URL('./fixtures/envelope-vector.json', import.meta.url), 'utf8'),
    );
    const receiver = privateKeyFromPem(vector.receiverPrivateKeyPem);
    expect(exchangePublicKey(receiver)).toBe(vector.receiverPublicKey);
    expect(open(vector.envelope, receiver, vector.senderPublicKey).message).toBe(vector.message);
  });

  it('opens an envelope sealed by Go (fixtures/go-envelope: crypto/rsa and encoding/json as anax uses them)', () => {
    const vector = JSON.parse(
      readFileSync(new URL('./fixtures/envelope-vector-go.json', import.meta.url), 'utf8'),
    );
    const receiver = privateKeyFromPem(vector.receiverPrivateKeyPem);
    expect(open(vector.envelope, receiver, vector.senderPublicKey).message).toBe(vector.message);
    expect(() => open(vector.envelope, receiver, exchangePublicKey(receiver))).toThrow(
      SenderKeyMismatchError,
    );
  });

  it('takes a 16- or 24-byte AES key as Go does (aes.NewCipher)', () => {
    const layers = { ...layersFor(PROPOSAL, agbot.privateKey), key: Buffer.alloc(16, 7) };
    expect(open(buildByHand(layers, node.publicKey), node.privateKey, agbot.publicKey).message).toBe(
      PROPOSAL,
    );
  });
});

describe('seal() writes what a by-hand decoder of docs/protocol.md#envelope reads', () => {
  it('has upstream exact layers: field names in Go order, 32-byte key, 12-byte nonce, sender SPKI, SHA3 PSS', () => {
    const decoded = decodeByHand(seal(PROPOSAL, agbot.privateKey, node.publicKey), node.privateKey);
    expect(decoded.xText).toMatch(
      /^\{"wrappedMessage":"[A-Za-z0-9+/=]+","symmetricValues":"[A-Za-z0-9+/=]+"\}$/,
    );
    expect(decoded.sText).toMatch(/^\{"key":"[A-Za-z0-9+/=]{44}","nonce":"[A-Za-z0-9+/=]{16}"\}$/);
    expect(decoded.wText).toMatch(/^\{"msg":"[^"]+","signature":"[^"]+","signerPubkey":"[^"]+"\}$/);
    expect(decoded.key).toHaveLength(32);
    expect(decoded.nonce).toHaveLength(12);
    expect(decoded.message).toBe(PROPOSAL);
    expect(decoded.signerDer.toString('base64')).toBe(exchangePublicKey(agbot.publicKey));
    // Go's PSSSaltLengthAuto signs with the longest salt: 256 - 32 - 2 bytes for RSA-2048/SHA3-256.
    expect(decoded.verifies(222)).toBe(true);
    expect(decoded.verifies(32)).toBe(false);
  });

  it('uses a fresh key and nonce for every message', () => {
    const a = decodeByHand(seal(PROPOSAL, agbot.privateKey, node.publicKey), node.privateKey);
    const b = decodeByHand(seal(PROPOSAL, agbot.privateKey, node.publicKey), node.privateKey);
    expect(a.key.equals(b.key)).toBe(false);
    expect(a.nonce.equals(b.nonce)).toBe(false);
  });

  it('refuses an empty message, as anax does', () => {
    expect(() => seal('', agbot.privateKey, node.publicKey)).toThrow();
  });
});

describe('open() drops anything that does not check out', () => {
  const flip = (text: string, at: number) => {
    const bytes = Buffer.from(text, 'base64');
    bytes[at] = (bytes[at] as number) ^ 1;
    return bytes.toString('base64');
  };

  it('the outer layer: not base64, not JSON, a missing or empty field', () => {
    const good = buildByHand(layersFor(PROPOSAL, agbot.privateKey), node.publicKey);
    expect(layer(() => open(`${good}!`, node.privateKey, agbot.publicKey))).toBe('envelope');
    expect(layer(() => open(Buffer.from('nope').toString('base64'), node.privateKey, agbot.publicKey))).toBe(
      'envelope',
    );
    const edited = buildByHand(layersFor(PROPOSAL, agbot.privateKey), node.publicKey, (x) => {
      x.symmetricValues = '';
    });
    expect(layer(() => open(edited, node.privateKey, agbot.publicKey))).toBe('envelope');
  });

  it('the symmetric values: tampered, for another receiver, or a nonce that is not 12 bytes', () => {
    const tampered = buildByHand(layersFor(PROPOSAL, agbot.privateKey), node.publicKey, (x) => {
      x.symmetricValues = flip(x.symmetricValues as string, 10);
    });
    expect(layer(() => open(tampered, node.privateKey, agbot.publicKey))).toBe('symmetric-values');
    const forStranger = seal(PROPOSAL, agbot.privateKey, stranger.publicKey);
    expect(layer(() => open(forStranger, node.privateKey, agbot.publicKey))).toBe('symmetric-values');
    const longNonce = { ...layersFor(PROPOSAL, agbot.privateKey), nonce: Buffer.alloc(16, 1) };
    expect(layer(() => open(buildByHand(longNonce, node.publicKey), node.privateKey, agbot.publicKey))).toBe(
      'symmetric-values',
    );
  });

  it('the wrapped message: a flipped ciphertext or tag byte fails GCM', () => {
    for (const at of [0, -1]) {
      const tampered = buildByHand(layersFor(PROPOSAL, agbot.privateKey), node.publicKey, (x) => {
        const c = x.wrappedMessage as string;
        x.wrappedMessage = flip(c, at < 0 ? Buffer.from(c, 'base64').length - 1 : at);
      });
      expect(layer(() => open(tampered, node.privateKey, agbot.publicKey))).toBe('wrapped-message');
    }
  });

  it('the signature: a flipped signature byte, or a changed message under the old signature', () => {
    const badSignature = layersFor(PROPOSAL, agbot.privateKey);
    badSignature.signature[5] = (badSignature.signature[5] as number) ^ 1;
    expect(
      layer(() => open(buildByHand(badSignature, node.publicKey), node.privateKey, agbot.publicKey)),
    ).toBe('signature');
    const changed = layersFor(PROPOSAL, agbot.privateKey);
    changed.message = Buffer.from(PROPOSAL.replace('IBM/agbot', 'IBM/other'));
    expect(layer(() => open(buildByHand(changed, node.publicKey), node.privateKey, agbot.publicKey))).toBe(
      'signature',
    );
  });

  it('a signature by the key it names, but not the key the Exchange has for the sender', () => {
    const envelope = seal(PROPOSAL, stranger.privateKey, node.publicKey);
    expect(() => open(envelope, node.privateKey, exchangePublicKey(agbot.publicKey))).toThrow(
      SenderKeyMismatchError,
    );
    expect(() => open(envelope, node.privateKey, agbot.publicKey)).toThrow(SenderKeyMismatchError);
    expect(() => open(envelope, node.privateKey, '')).toThrow(SenderKeyMismatchError);
    expect(open(envelope, node.privateKey, stranger.publicKey).message).toBe(PROPOSAL);
  });

  it('a signerPubkey that names one key while another signed', () => {
    const layers = layersFor(PROPOSAL, stranger.privateKey);
    layers.signerPubkey = agbot.publicKey.export({ type: 'spki', format: 'der' });
    expect(layer(() => open(buildByHand(layers, node.publicKey), node.privateKey, agbot.publicKey))).toBe(
      'signature',
    );
  });
});
