/** Which secret a data key belongs to: bound into the KMS encryption context and the GCM AAD. */
export interface SecretContext {
  org: string;
  name: string;
}

/**
 * Where data keys come from: KMS on AWS (kms-key-provider.ts), a local master key file otherwise
 * (local-key-provider.ts). `unwrapDataKey` throws SecretIntegrityError when the wrapped key does
 * not belong to `context` or to this provider's key.
 */
export interface KeyProvider {
  readonly name: 'kms' | 'local';
  generateDataKey(context: SecretContext): Promise<{ plaintext: Buffer; wrapped: Buffer; keyId: string }>;
  unwrapDataKey(wrapped: Buffer, keyId: string, context: SecretContext): Promise<Buffer>;
}
