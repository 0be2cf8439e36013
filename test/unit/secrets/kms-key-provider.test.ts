import {
  DecryptCommand,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  KMSClient,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { open, SecretIntegrityError, seal } from '#lib/secrets/envelope';
import { kmsKeyProvider } from '#lib/secrets/kms-key-provider';

/** The KMS provider at the SDK boundary: what it asks KMS for, and what it makes of the answers. */
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

const KEY = 'alias/open-exchange-test-secrets';
const dataKey = Buffer.alloc(32, 7);
const wrapped = Buffer.from('wrapped-by-kms');

describe('kmsKeyProvider', () => {
  it('seals with a GenerateDataKey bound to org and name, and opens with Decrypt under the same context', async () => {
    kms.on(GenerateDataKeyCommand).resolves({
      Plaintext: new Uint8Array(dataKey),
      CiphertextBlob: new Uint8Array(wrapped),
      KeyId: 'arn:aws:kms:eu-west-1:1:key/k',
    });
    kms.on(DecryptCommand).resolves({ Plaintext: new Uint8Array(dataKey) });
    const provider = kmsKeyProvider(new KMSClient({ region: 'eu-west-1' }), KEY);
    const context = { org: 'o', name: 'db/pw' };
    const sealed = await seal(provider, '{"key":"k","value":"v"}', context);
    expect(sealed.keyId).toBe('arn:aws:kms:eu-west-1:1:key/k');
    expect(Buffer.from(sealed.dataKey, 'base64')).toEqual(wrapped);
    expect(await open(provider, sealed, context)).toBe('{"key":"k","value":"v"}');

    const generate = kms.commandCalls(GenerateDataKeyCommand)[0]?.args[0].input;
    expect(generate).toEqual({
      KeyId: KEY,
      KeySpec: 'AES_256',
      EncryptionContext: { org: 'o', secret: 'db/pw' },
    });
    const decrypt = kms.commandCalls(DecryptCommand)[0]?.args[0].input;
    expect(decrypt?.EncryptionContext).toEqual({ org: 'o', secret: 'db/pw' });
    expect(decrypt?.KeyId).toBe('arn:aws:kms:eu-west-1:1:key/k');
    expect(Buffer.from(decrypt?.CiphertextBlob ?? [])).toEqual(wrapped);
  });

  it('turns KMS refusing the context (a moved data key) into SecretIntegrityError', async () => {
    kms.on(DecryptCommand).rejects(new InvalidCiphertextException({ message: 'bad', $metadata: {} }));
    const provider = kmsKeyProvider(new KMSClient({ region: 'eu-west-1' }), KEY);
    await expect(provider.unwrapDataKey(wrapped, KEY, { org: 'o', name: 'other' })).rejects.toBeInstanceOf(
      SecretIntegrityError,
    );
  });

  it('lets other KMS failures through (a 5xx of KMS is not an integrity error)', async () => {
    kms.on(DecryptCommand).rejects(new Error('throttled'));
    const provider = kmsKeyProvider(new KMSClient({ region: 'eu-west-1' }), KEY);
    await expect(provider.unwrapDataKey(wrapped, KEY, { org: 'o', name: 'x' })).rejects.toThrow('throttled');
  });
});
