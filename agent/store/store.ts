import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import { migrate } from '../../lib/sqlite/migrate.ts';
import { EVENT_JSON, type EventFilter, filterConditions } from './event-sql.ts';
import { CANDIDATES_SQL, CLEAR_TEXT_INDEX, MAX_CANDIDATES, openTextIndex, textQuery } from './event-text.ts';

export type { EventField, EventFilter } from './event-sql.ts';

/**
 * The agent's only persistent state: one SQLite file under the data dir (node:sqlite, built into
 * Node 22, so the shipped bundle needs no native module). The schema is versioned
 * (`PRAGMA user_version`, MIGRATIONS below, applied in order on open):
 * - `state`: JSON documents by key (node record, user input, policy, sync bookkeeping);
 * - `pending`: which kinds of local writes still have to reach the Exchange;
 * - `events`: the event log, numbered by an autoincrement id that is never reused (with
 *   `events_text`, a trigram index of the messages: event-text.ts);
 * - `agreements`, `secrets`: one row each (secrets: names and times only; the values live in the
 *   agreement's 0600 secret files);
 * - `dependency_instances`, `dependency_users`: running dependencies and the agreements using them.
 * Every call is synchronous, so callers never see a half-applied change. */

export interface NewEvent {
  timestamp: number;
  severity: string;
  message: string;
  event_code: string;
  source_type: string;
  event_source: Record<string, unknown>;
}

export interface StoredEvent extends NewEvent {
  record_id: string;
}

const FIRST_SCHEMA = `
  CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS pending (kind TEXT PRIMARY KEY, since INTEGER NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS events (
    record_id INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp INTEGER NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    event_code TEXT NOT NULL,
    source_type TEXT NOT NULL,
    event_source TEXT NOT NULL
  ) STRICT;
  -- Selecting by event code (the usual selector) should not read every event.
  CREATE INDEX IF NOT EXISTS events_by_code ON events (event_code);
`;

/** Version 2: workload records get tables of their own; the agreements array moves into its table. */
const WORKLOAD_TABLES = `
  CREATE TABLE agreements (
    agreement_id TEXT PRIMARY KEY,
    archived INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL
  ) STRICT;
  CREATE INDEX agreements_by_state ON agreements (archived, created_at);
  CREATE TABLE service_instances (
    instance_id TEXT PRIMARY KEY,
    agreement_id TEXT NOT NULL,
    record TEXT NOT NULL
  ) STRICT;
  CREATE INDEX service_instances_by_agreement ON service_instances (agreement_id);
  CREATE TABLE containers (
    agreement_id TEXT NOT NULL,
    service_name TEXT NOT NULL,
    container_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (agreement_id, service_name)
  ) STRICT;
  CREATE TABLE secrets (
    agreement_id TEXT NOT NULL,
    name TEXT NOT NULL,
    service_org TEXT NOT NULL,
    service_url TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (agreement_id, name)
  ) STRICT;
  INSERT INTO agreements (agreement_id, archived, created_at, record)
    SELECT json_extract(j.value, '$.current_agreement_id'),
           CASE WHEN json_extract(j.value, '$.archived') OR json_extract(j.value, '$.agreement_terminated_time') > 0
                THEN 1 ELSE 0 END,
           coalesce(json_extract(j.value, '$.agreement_creation_time'), 0),
           j.value
    FROM state AS s, json_each(s.value) AS j WHERE s.key = 'agreements';
  DELETE FROM state WHERE key = 'agreements';
`;

/**
 * Version 3: dependency instances (service-dependencies.ts): one row per running dependency
 * (by instance key) and one per agreement that uses it, the reference count that decides when
 * its containers go.
 */
const DEPENDENCY_TABLES = `
  CREATE TABLE dependency_instances (
    instance_key TEXT PRIMARY KEY,
    org TEXT NOT NULL,
    url TEXT NOT NULL,
    version TEXT NOT NULL,
    sharable TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL
  ) STRICT;
  CREATE INDEX dependency_instances_by_service ON dependency_instances (org, url, version);
  CREATE TABLE dependency_users (
    instance_key TEXT NOT NULL,
    agreement_id TEXT NOT NULL,
    PRIMARY KEY (instance_key, agreement_id)
  ) STRICT;
  CREATE INDEX dependency_users_by_agreement ON dependency_users (agreement_id);
`;

/**
 * Version 4: version 2's `service_instances` and `containers` were never written or read (the
 * agreement record names its containers, and the engine is asked for them), so they go.
 */
const DROP_UNUSED_TABLES = `
  DROP TABLE IF EXISTS service_instances;
  DROP TABLE IF EXISTS containers;
`;

/** Applied in order by lib/sqlite/migrate.ts; a step is never edited once released, only added. */
const MIGRATIONS = [FIRST_SCHEMA, WORKLOAD_TABLES, DEPENDENCY_TABLES, DROP_UNUSED_TABLES];

interface PageRow {
  n: number;
  last: number | null;
  page: string | null;
}

interface EventRow {
  record_id: number;
  timestamp: number;
  severity: string;
  message: string;
  event_code: string;
  source_type: string;
  event_source: string;
}

export class Store {
  private readonly db: DatabaseSync;
  /** Predicates of the query being run; SQLite calls back into them through `agent_filter`. */
  private filters: EventFilter[] = [];
  /** Whether messages have their trigram index (SQLite built with FTS5). */
  private readonly textIndex: boolean;

  private constructor(db: DatabaseSync) {
    this.db = db;
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
    migrate(db, MIGRATIONS);
    this.textIndex = openTextIndex(db);
    db.function('agent_filter', { deterministic: false }, (index, value, type) =>
      this.filters[Number(index)]?.test(fromSql(value, type)) ? 1 : 0,
    );
  }

  /** Opens (creating if needed) `<dir>/agent.db`; the directory is private to the agent's user. */
  static open(dir: string): Store {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'agent.db');
    // Loaded lazily so the entry point can silence the "experimental" warning first.
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const store = new Store(new DatabaseSync(file));
    chmodSync(file, 0o600); // holds the node token
    return store;
  }

  /** An in-memory store (tests, benchmarks of the query path). */
  static memory(): Store {
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    return new Store(new DatabaseSync(':memory:'));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  get<T>(key: string): T | undefined {
    const row = this.statement('SELECT value FROM state WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.statement(
      'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }

  /** Rows of a query on the agent's own tables (agreements, service instances...). */
  rows<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  /** Runs a write on the agent's own tables. */
  run(sql: string, ...params: SQLInputValue[]): void {
    this.statement(sql).run(...params);
  }

  delete(key: string): void {
    this.statement('DELETE FROM state WHERE key = ?').run(key);
  }

  markPending(kind: string, now: number): void {
    this.statement('INSERT OR IGNORE INTO pending (kind, since) VALUES (?, ?)').run(kind, now);
  }

  clearPending(kind?: string): void {
    if (kind === undefined) this.db.exec('DELETE FROM pending');
    else this.statement('DELETE FROM pending WHERE kind = ?').run(kind);
  }

  isPending(kind: string): boolean {
    return this.statement('SELECT 1 AS one FROM pending WHERE kind = ?').get(kind) !== undefined;
  }

  pendingKinds(): string[] {
    return (this.statement('SELECT kind FROM pending ORDER BY since').all() as { kind: string }[]).map(
      (row) => row.kind,
    );
  }

  addEvent(event: NewEvent): StoredEvent {
    const result = this.statement(
      'INSERT INTO events (timestamp, severity, message, event_code, source_type, event_source) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(
      event.timestamp,
      event.severity,
      event.message,
      event.event_code,
      event.source_type,
      JSON.stringify(event.event_source),
    );
    return { record_id: String(result.lastInsertRowid), ...event };
  }

  /** Highest event id ever handed out (0 if none). */
  lastEventId(): number {
    const row = this.statement("SELECT seq FROM sqlite_sequence WHERE name = 'events'").get() as
      | { seq: number }
      | undefined;
    return row?.seq ?? 0;
  }

  /** Events with an id above `afterId` that pass every filter, oldest first. */
  events(afterId: number, filters: EventFilter[] = []): StoredEvent[] {
    const query = this.eventQuery(filters);
    if (!query) return [];
    const sql = `SELECT * FROM events WHERE record_id > ? AND ${query.where} ORDER BY record_id`;
    const rows = this.withFilters(filters, () => this.statement(sql).all(afterId, ...query.params));
    return (rows as unknown as EventRow[]).map(toEvent);
  }

  /**
   * The same events as JSON text, a page at a time: each page is up to `pageSize` event objects
   * joined by commas (the caller adds the brackets). SQLite writes the JSON, so a long log is
   * streamed without ever holding its events, or a JavaScript object per event, in memory.
   */
  *eventPages(afterId: number, filters: EventFilter[] = [], pageSize = 500): Generator<string, void> {
    const query = this.eventQuery(filters);
    if (!query) return;
    const sql = `SELECT count(*) AS n, max(record_id) AS last, group_concat(json, ',' ORDER BY record_id) AS page
      FROM (SELECT record_id, ${EVENT_JSON} AS json FROM events
            WHERE record_id > ? AND ${query.where} ORDER BY record_id LIMIT ?)`;
    let cursor = afterId;
    for (;;) {
      const run = () => this.statement(sql).get(cursor, ...query.params, pageSize) as unknown as PageRow;
      const row = this.withFilters(filters, run);
      if (row.n > 0 && row.page !== null) yield row.page;
      if (row.n < pageSize || row.last === null) return;
      cursor = row.last;
    }
  }

  /**
   * The SQL condition for `filters`, narrowed to the trigram index's candidates when a message
   * substring is rare enough; undefined when the index shows nothing can match.
   */
  private eventQuery(filters: EventFilter[]): { where: string; params: SQLInputValue[] } | undefined {
    const { conditions, params } = filterConditions(filters);
    const text = this.textIndex ? textQuery(filters) : undefined;
    const hits = text === undefined ? undefined : this.candidates(text);
    if (hits) {
      if (hits.n === 0) return undefined;
      if (hits.n <= MAX_CANDIDATES) {
        conditions.unshift('record_id IN (SELECT value FROM json_each(?))');
        params.unshift(hits.ids);
      }
    }
    return { where: conditions.length ? conditions.join(' AND ') : 'TRUE', params };
  }

  /** The trigram index's candidates; undefined if the index cannot answer (then every event is read). */
  private candidates(text: string): { ids: string; n: number } | undefined {
    try {
      return this.statement(CANDIDATES_SQL).get(text) as { ids: string; n: number };
    } catch {
      return undefined;
    }
  }

  /** Runs a query whose SQL may call back into the filters' predicates. */
  private withFilters<T>(filters: EventFilter[], run: () => T): T {
    this.filters = filters;
    try {
      return run();
    } finally {
      this.filters = [];
    }
  }

  /** Prepared statements by SQL text (selector queries repeat a handful of shapes). */
  private readonly statements = new Map<string, StatementSync>();

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 100) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Deletes every event (ids go on from the highest ever handed out). */
  clearEvents(): void {
    this.db.exec('DELETE FROM events');
    // After the events: should this fail, the index only keeps entries of deleted events, which
    // match nothing (ids are never reused).
    if (this.textIndex) this.db.exec(CLEAR_TEXT_INDEX);
  }
}

function toEvent(row: EventRow): StoredEvent {
  return {
    record_id: String(row.record_id),
    timestamp: row.timestamp,
    severity: row.severity,
    message: row.message,
    event_code: row.event_code,
    source_type: row.source_type,
    event_source: JSON.parse(row.event_source) as Record<string, unknown>,
  };
}

/** Turns what json_extract hands back into the JSON value it came from (booleans arrive as 0/1). */
function fromSql(value: SQLOutputValue, type: SQLOutputValue): unknown {
  if (type === null) return value === null ? undefined : value; // a column, or a path that is absent
  if (type === 'true') return true;
  if (type === 'false') return false;
  if (type === 'null') return null;
  if (type === 'array' || type === 'object') return JSON.parse(String(value));
  return value;
}
