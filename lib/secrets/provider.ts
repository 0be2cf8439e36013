import { join } from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import type { KeyProvider } from './key-provider.ts';
import { kmsKeyProvider } from './kms-key-provider.ts';
import { loadOrCreateMasterKey, localKeyProvider } from './local-key-provider.ts';

/**
 * The key provider this process uses, chosen by the environment: `EXCHANGE_SECRETS_KMS_KEY_ID`
 * set (serverless.yml sets it on AWS) → KMS; otherwise the local master key in
 * `EXCHANGE_SECRETS_MASTER_KEY_FILE` (default `<EXCHANGE_DATA_DIR or .data>/secrets-master-key`).
 */
export const masterKeyFile = (env: NodeJS.ProcessEnv = process.env): string =>
  env.EXCHANGE_SECRETS_MASTER_KEY_FILE || join(env.EXCHANGE_DATA_DIR || '.data', 'secrets-master-key');

export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): KeyProvider {
  const kmsKey = env.EXCHANGE_SECRETS_KMS_KEY_ID;
  if (kmsKey) return kmsKeyProvider(new KMSClient({}), kmsKey);
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
