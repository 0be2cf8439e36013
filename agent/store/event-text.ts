import type { DatabaseSync } from 'node:sqlite';
import type { EventFilter } from './event-sql.ts';

/**
 * A trigram index over event messages (SQLite FTS5), so that `message=~text` finds the few
 * events containing `text` without reading every event. It only narrows the search: the
 * selector's own `instr(message, text)` still decides, so an approximate candidate (trigrams in
 * another order) or a stale entry is never shown. Events are only ever appended (ids are never
 * reused) and cleared all at once, so an insert trigger and `delete-all` keep it complete.
 */
const SCHEMA = `
  CREATE VIRTUAL TABLE events_text USING fts5(
    message, content = 'events', content_rowid = 'record_id',
    tokenize = 'trigram case_sensitive 1', detail = none
  );
  CREATE TRIGGER events_text_insert AFTER INSERT ON events BEGIN
    INSERT INTO events_text (rowid, message) VALUES (new.record_id, new.message);
  END;
`;

/**
 * At most this many candidates are used; a more common text is tested on every event instead
 * (reading 10,000 events costs about as much as looking up a few hundred by id).
 */
export const MAX_CANDIDATES = 500;

/**
 * Trigrams per query (first, middle and last): any subset narrows correctly, and each one more
 * costs a lookup in every index segment (~30 µs), more than it usually saves.
 */
const MAX_TRIGRAMS = 3;

/**
 * Creates the index (and fills it from the events already stored) unless it exists. Returns
 * false when this SQLite has no FTS5: selectors then read every event, as before.
 */
export function openTextIndex(db: DatabaseSync): boolean {
  const exists = db.prepare("SELECT 1 AS one FROM sqlite_master WHERE name = 'events_text'").get();
  if (exists) return true;
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec(SCHEMA);
    db.exec("INSERT INTO events_text (events_text) VALUES ('rebuild')");
    db.exec('COMMIT');
    return true;
  } catch {
    try {
      db.exec('ROLLBACK');
    } catch {} // nothing was begun
    return false;
  }
}

/** Empties the index (with `DELETE FROM events`, in the same transaction). */
export const CLEAR_TEXT_INDEX = "INSERT INTO events_text (events_text) VALUES ('delete-all')";

/** SQL giving the ids (a JSON array, ascending) and number of events whose message has all trigrams. */
export const CANDIDATES_SQL = `SELECT json_group_array(rowid) AS ids, count(*) AS n FROM (
  SELECT rowid FROM events_text WHERE events_text MATCH ? ORDER BY rowid LIMIT ${MAX_CANDIDATES + 1})`;

/**
 * The substring the index can narrow by: the longest `message=~text` of at least 3 characters
 * (the shortest a trigram index can search), with its FTS5 query (trigrams ANDed, each quoted).
 */
export function textQuery(filters: EventFilter[]): string | undefined {
  let longest: string[] | undefined;
  for (const { field, sql } of filters) {
    if (!('column' in field) || field.column !== 'message' || sql?.op !== 'contains') continue;
    if (sql.value.includes('\0')) continue; // C strings inside FTS5 would cut the text short
    const chars = Array.from(sql.value); // trigrams count Unicode characters, not UTF-16 units
    if (chars.length >= 3 && chars.length > (longest?.length ?? 0)) longest = chars;
  }
  if (!longest) return undefined;
  const starts = longest.length - 2;
  const picked = new Set<string>();
  for (let i = 0; i < Math.min(starts, MAX_TRIGRAMS); i++) {
    const at = Math.floor((i * (starts - 1)) / Math.max(1, Math.min(starts, MAX_TRIGRAMS) - 1));
    picked.add(longest.slice(at, at + 3).join(''));
  }
  return [...picked].map((trigram) => `"${trigram.replaceAll('"', '""')}"`).join(' AND ');
}
