import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { LocalStackError } from './dynamodb-local.ts';

/**
 * Root's password for a local run: EXCHANGE_ROOT_PW when set; otherwise the one generated on the
 * first start and kept (mode 0600) in the data dir, so later starts print and accept the same one.
 */
export function resolveRootPassword(fromEnv: string | undefined, file: string): string {
  if (fromEnv) return fromEnv;
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved) return saved;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      throw new LocalStackError(
        `Cannot read the saved root password ${file} (${code}). Fix or remove that file, or set EXCHANGE_ROOT_PW.`,
      );
    }
  }
  const generated = randomBytes(18).toString('base64url');
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}
