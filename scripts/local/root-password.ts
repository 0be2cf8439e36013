import { keptSecret } from './kept-secret.ts';

/**
 * Root's password for a local run: EXCHANGE_ROOT_PW when set; otherwise the one generated on the
 * first start and kept (mode 0600) in the data dir, so later starts print and accept the same one.
 */
export function resolveRootPassword(fromEnv: string | undefined, file: string): string {
  return fromEnv || keptSecret(file, ', or set EXCHANGE_ROOT_PW');
}
