import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { migrate } from '#lib/sqlite/migrate';

const open = (): DatabaseSync => new (process.getBuiltinModule('node:sqlite').DatabaseSync)(':memory:');
const version = (db: DatabaseSync) =>
  (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

describe('migrate (PRAGMA user_version)', () => {
  const steps = [
    'CREATE TABLE t (a INTEGER) STRICT',
    (db: DatabaseSync) => db.exec('ALTER TABLE t ADD COLUMN b TEXT'),
  ];

  it('applies every step once, in order, and is idempotent', () => {
    const db = open();
    expect(migrate(db, steps)).toBe(2);
    db.exec("INSERT INTO t (a, b) VALUES (1, 'x')");
    expect(migrate(db, steps)).toBe(2);
    expect(version(db)).toBe(2);
    expect(db.prepare('SELECT a, b FROM t').all()).toEqual([{ a: 1, b: 'x' }]);
  });

  it('continues from the version a database is at', () => {
    const db = open();
    migrate(db, steps.slice(0, 1));
    db.exec('INSERT INTO t (a) VALUES (7)');
    migrate(db, steps);
    expect(db.prepare('SELECT a, b FROM t').all()).toEqual([{ a: 7, b: null }]);
  });

  it('rolls a failing step back whole, leaving the version before it', () => {
    const db = open();
    const failing = [...steps, 'CREATE TABLE u (x INTEGER); INSERT INTO nowhere VALUES (1)'];
    expect(() => migrate(db, failing)).toThrow(/nowhere/);
    expect(version(db)).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'u'").all()).toEqual([]);
  });

  it('refuses a database newer than the program', () => {
    const db = open();
    migrate(db, steps);
    expect(() => migrate(db, steps.slice(0, 1))).toThrow(
      'database schema version 2 is newer than this program knows (1)',
    );
  });
});
