import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { LocalStackError } from './dynamodb-local.ts';

const FRESH_START = 'set EXCHANGE_DATA_DIR to another directory to start with an empty one';

function ensureDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new LocalStackError(
        `${dir} is not a directory. Move that file out of the way, or ${FRESH_START}.`,
      );
    }
    throw new LocalStackError(`Cannot create ${dir} (${code}). Fix its permissions, or ${FRESH_START}.`);
  }
  if (!statSync(dir).isDirectory()) {
    throw new LocalStackError(`${dir} is not a directory. Move that file out of the way, or ${FRESH_START}.`);
  }
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw new LocalStackError(`${dir} is not readable and writable. Fix its permissions, or ${FRESH_START}.`);
  }
}

const SQLITE_HEADER = 'SQLite format 3\0';

/** DynamoDB Local keeps its data in SQLite files: one that is not SQLite would fail every request. */
function checkDatabaseFile(file: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    if (read > 0 && header.toString('latin1') !== SQLITE_HEADER) throw new Error('not an SQLite database');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw corruptData(file, reason);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function corruptData(where: string, reason: string): LocalStackError {
  return new LocalStackError(
    `The local data in ${where} is unreadable or corrupt (${reason}).\n` +
      `Move it aside (or delete it) to start with an empty Exchange, or ${FRESH_START}.`,
  );
}

/** Creates the data directories if needed and fails early, with what to do, when they are unusable. */
export function prepareDataDir(dataDir: string, dynamoDir: string | undefined): void {
  ensureDirectory(dataDir);
  // No directory of DynamoDB Local's when another DynamoDB is used (EXCHANGE_DYNAMODB_ENDPOINT).
  if (dynamoDir === undefined) return;
  ensureDirectory(dynamoDir);
  for (const name of readdirSync(dynamoDir)) {
    if (name.endsWith('.db')) checkDatabaseFile(join(dynamoDir, name));
  }
}
