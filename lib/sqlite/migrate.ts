import type { DatabaseSync } from 'node:sqlite';

/**
 * Brings a SQLite database to the newest schema: `steps[i]` moves it from version i to i + 1
 * (`PRAGMA user_version`). Each step runs in its own transaction with the version bump, so a
 * crash leaves the database at a whole version. A database newer than this code is refused:
 * running old code on it could lose what the newer schema holds.
 */
export function migrate(
  db: DatabaseSync,
  steps: ReadonlyArray<string | ((db: DatabaseSync) => void)>,
): number {
  const current = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (current > steps.length) {
    throw new Error(`database schema version ${current} is newer than this program knows (${steps.length})`);
  }
  for (let version = current; version < steps.length; version++) {
    const step = steps[version] as string | ((db: DatabaseSync) => void);
    db.exec('BEGIN IMMEDIATE');
    try {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return steps.length;
}
