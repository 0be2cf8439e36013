import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgreements, newAgreement } from '../agreements/store.ts';
import { tempDir } from '../test-support/harness.ts';
import { Store } from './store.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const openRaw = (file: string): DatabaseSync =>
  new (process.getBuiltinModule('node:sqlite').DatabaseSync)(file);
const version = (db: DatabaseSync) =>
  (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

/** A data dir as the agent before versioned migrations left it: no user_version, agreements as one JSON array. */
function legacyDataDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  const db = openRaw(join(dir.path, 'agent.db'));
  db.exec(`
    CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    CREATE TABLE pending (kind TEXT PRIMARY KEY, since INTEGER NOT NULL) STRICT;
    CREATE TABLE events (
      record_id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp INTEGER NOT NULL, severity TEXT NOT NULL,
      message TEXT NOT NULL, event_code TEXT NOT NULL, source_type TEXT NOT NULL, event_source TEXT NOT NULL
    ) STRICT;
    CREATE INDEX events_by_code ON events (event_code);
  `);
  const agreements = [
    newAgreement('old-archived', { archived: true, agreement_creation_time: 5, terminated_reason: 105 }),
    newAgreement('old-active', { agreement_creation_time: 9, name: 'kept' }),
  ];
  db.prepare('INSERT INTO state (key, value) VALUES (?, ?)').run('agreements', JSON.stringify(agreements));
  db.prepare('INSERT INTO state (key, value) VALUES (?, ?)').run('node', '{"id":"n1"}');
  db.exec(`INSERT INTO events (timestamp, severity, message, event_code, source_type, event_source)
           VALUES (1, 'info', 'registered', 'node_registered', 'node', '{}')`);
  db.close();
  return dir.path;
}

/** Version 2's tables that version 4 drops (never used). */
const UNUSED_V2_TABLES = `
  CREATE TABLE service_instances (instance_id TEXT PRIMARY KEY, agreement_id TEXT NOT NULL, record TEXT NOT NULL) STRICT;
  CREATE INDEX service_instances_by_agreement ON service_instances (agreement_id);
  CREATE TABLE containers (agreement_id TEXT NOT NULL, service_name TEXT NOT NULL, container_id TEXT NOT NULL,
    created_at INTEGER NOT NULL, PRIMARY KEY (agreement_id, service_name)) STRICT;
`;

describe('agent store migrations (PRAGMA user_version)', () => {
  it('moves a legacy agreements array into its table, keeping every other record and event', () => {
    const dir = legacyDataDir();
    const store = Store.open(dir);
    expect(loadAgreements(store).map((a) => [a.current_agreement_id, a.archived, a.name])).toEqual([
      ['old-archived', true, ''],
      ['old-active', false, 'kept'],
    ]);
    expect(store.get('agreements')).toBeUndefined();
    expect(store.get('node')).toEqual({ id: 'n1' });
    expect(store.events(0).map((e) => e.event_code)).toEqual(['node_registered']);
    store.close();

    const raw = openRaw(join(dir, 'agent.db'));
    expect(version(raw)).toBe(4);
    const active = raw.prepare('SELECT agreement_id FROM agreements WHERE archived = 0').all();
    expect(active).toEqual([{ agreement_id: 'old-active' }]);
    raw.close();

    // Opening again changes nothing.
    const again = Store.open(dir);
    expect(loadAgreements(again)).toHaveLength(2);
    again.close();
  });

  it('adds the dependency tables to a version 2 data dir without touching its agreements', () => {
    const dir = legacyDataDir();
    Store.open(dir).close();
    const raw = openRaw(join(dir, 'agent.db'));
    raw.exec(`DROP TABLE dependency_instances; DROP TABLE dependency_users; ${UNUSED_V2_TABLES}`);
    raw.exec('PRAGMA user_version = 2');
    raw.close();
    const store = Store.open(dir);
    expect(loadAgreements(store)).toHaveLength(2);
    expect(store.rows('SELECT * FROM dependency_users')).toEqual([]);
    store.close();
  });

  it('drops the never-used service_instances and containers tables of a version 3 data dir', () => {
    const dir = legacyDataDir();
    Store.open(dir).close();
    const raw = openRaw(join(dir, 'agent.db'));
    raw.exec(UNUSED_V2_TABLES);
    raw.exec('PRAGMA user_version = 3');
    raw.close();
    const store = Store.open(dir);
    expect(loadAgreements(store)).toHaveLength(2);
    store.close();
    const after = openRaw(join(dir, 'agent.db'));
    const tables = after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const names = tables.map((t) => String(t.name));
    expect(names).toContain('agreements');
    expect(names).not.toContain('service_instances');
    expect(names).not.toContain('containers');
    expect(version(after)).toBe(4);
    after.close();
  });

  it('refuses a data dir written by a newer agent', () => {
    const dir = tempDir();
    dirs.push(dir);
    Store.open(dir.path).close();
    const raw = openRaw(join(dir.path, 'agent.db'));
    raw.exec('PRAGMA user_version = 99');
    raw.close();
    expect(() => Store.open(dir.path)).toThrow(
      'database schema version 99 is newer than this program knows (4)',
    );
  });
});
