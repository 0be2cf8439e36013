import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { LocalStackError } from './dynamodb-local.ts';

/**
 * A secret generated on the first start and kept (mode 0600) in `file`, so later starts use the
 * same one. `setting` names what the user can do instead when the file cannot be read.
 */
export function keptSecret(file: string, setting: string): string {
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved) return saved;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      throw new LocalStackError(
        `Cannot read the saved secret ${file} (${code}). Fix or remove that file${setting}.`,
      );
    }
  }
  const generated = randomBytes(18).toString('base64url');
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}
