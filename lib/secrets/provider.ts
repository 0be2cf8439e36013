import { join } from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import type { KeyProvider } from './key-provider.ts';
import { kmsKeyProvider } from './kms-key-provider.ts';
import { loadOrCreateMasterKey, localKeyProvider } from './local-key-provider.ts';

/** Where the local master key lives: `EXCHANGE_SECRETS_MASTER_KEY_FILE`, else `<EXCHANGE_DATA_DIR or .data>/secrets-master-key`. */
export const masterKeyFile = (env: NodeJS.ProcessEnv = process.env): string =>
  env.EXCHANGE_SECRETS_MASTER_KEY_FILE || join(env.EXCHANGE_DATA_DIR || '.data', 'secrets-master-key');

/**
 * The key provider the environment chooses: `EXCHANGE_SECRETS_PROVIDER=kms` (serverless.yml's
 * default on AWS) uses the KMS key `EXCHANGE_SECRETS_KMS_KEY_ID`; anything else, and always under
 * serverless-offline (IS_OFFLINE), the local master key file.
 */
export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): KeyProvider {
  const kms = env.EXCHANGE_SECRETS_PROVIDER === 'kms' && env.IS_OFFLINE !== 'true';
  if (kms) {
    const keyId = env.EXCHANGE_SECRETS_KMS_KEY_ID;
    if (!keyId) throw new Error('EXCHANGE_SECRETS_PROVIDER=kms needs EXCHANGE_SECRETS_KMS_KEY_ID');
    return kmsKeyProvider(new KMSClient({}), keyId);
  }
  return localKeyProvider(loadOrCreateMasterKey(masterKeyFile(env)));
}

let current: KeyProvider | undefined;

/** This instance's provider, made on first use (a warm call reuses it and its KMS client). */
export const keyProvider = (): KeyProvider => {
  current ??= providerFromEnv();
  return current;
};

/** Tests and the rotation script: use this provider from now on (undefined: back to the environment). */
export const useKeyProvider = (provider: KeyProvider | undefined): void => {
  current = provider;
};
