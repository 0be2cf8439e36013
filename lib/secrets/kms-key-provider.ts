import {
  DecryptCommand,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  type KMSClient,
} from '@aws-sdk/client-kms';
import { SecretIntegrityError } from './envelope.ts';
import type { KeyProvider, SecretContext } from './key-provider.ts';

/** KMS's encryption context: logged in CloudTrail, so names only, never values. */
const encryptionContext = (context: SecretContext) => ({ org: context.org, secret: context.name });

/** Data keys from one KMS key: GenerateDataKey on write, Decrypt on read, both bound to the secret. */
export function kmsKeyProvider(client: KMSClient, keyId: string): KeyProvider {
  return {
    name: 'kms',
    async generateDataKey(context: SecretContext) {
      const out = await client.send(
        new GenerateDataKeyCommand({
          KeyId: keyId,
          KeySpec: 'AES_256',
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
      return {
        plaintext: Buffer.from(out.Plaintext),
        wrapped: Buffer.from(out.CiphertextBlob),
        keyId: out.KeyId ?? keyId,
      };
    },
    async unwrapDataKey(wrapped: Buffer, storedKeyId: string, context: SecretContext) {
      try {
        const out = await client.send(
          new DecryptCommand({
            CiphertextBlob: wrapped,
            KeyId: storedKeyId,
            EncryptionContext: encryptionContext(context),
          }),
        );
        if (!out.Plaintext) throw new Error('KMS Decrypt returned no key');
        return Buffer.from(out.Plaintext);
      } catch (error) {
        // A blob bound to another secret's context: KMS answers InvalidCiphertextException.
        if (error instanceof InvalidCiphertextException) throw new SecretIntegrityError(context);
        throw error;
      }
    },
  };
}
