import type { SQLInputValue } from 'node:sqlite';

/** Where a selector reads its value: a column of the event or a path inside `event_source`. */
export type EventField =
  | { column: 'record_id' | 'timestamp' | 'severity' | 'message' | 'event_code' | 'source_type' }
  | { path: string[] };

/**
 * One selector: the field it reads and a predicate over the field's JSON value (undefined when
 * absent). `sql` says the same thing in SQL for a text value, so SQLite can test it natively
 * instead of calling back into JavaScript for every row.
 */
export interface EventFilter {
  field: EventField;
  test: (value: unknown) => boolean;
  sql?: { op: 'equals' | 'contains'; value: string };
}

const TEXT_COLUMNS = new Set(['severity', 'message', 'event_code', 'source_type']);

/**
 * One event as JSON text, built by SQLite: the API's field order, `record_id` as a string, and
 * `event_source` spliced in as stored (it was written by JSON.stringify). Listing events this way
 * never makes a JavaScript object per event.
 */
export const EVENT_JSON = `'{"record_id":"' || record_id || '","timestamp":' || timestamp ||
  ',"severity":' || json_quote(severity) || ',"message":' || json_quote(message) ||
  ',"event_code":' || json_quote(event_code) || ',"source_type":' || json_quote(source_type) ||
  ',"event_source":' || event_source || '}'`;

/**
 * SQL conditions (ANDed) and their parameters for the filters. Filters SQL cannot state call
 * back into `agent_filter(index, value, json type)`, which runs `filters[index].test`.
 */
export function filterConditions(filters: EventFilter[]): { conditions: string[]; params: SQLInputValue[] } {
  const params: SQLInputValue[] = [];
  const conditions = filters.map((filter, index) => {
    const { field, sql } = filter;
    if ('column' in field && sql && TEXT_COLUMNS.has(field.column)) {
      params.push(sql.value);
      return sql.op === 'equals' ? `${field.column} = ?` : `instr(${field.column}, ?) > 0`;
    }
    if ('column' in field) {
      const column = field.column === 'record_id' ? 'CAST(record_id AS TEXT)' : field.column;
      return `agent_filter(${index}, ${column}, NULL)`;
    }
    const path = `$${field.path.map((part) => `."${part.replaceAll('"', '""')}"`).join('')}`;
    if (sql) {
      // Text values are tested natively; only array values (any element may match) call back.
      const test =
        sql.op === 'equals'
          ? 'json_extract(event_source, ?) = ?'
          : 'instr(json_extract(event_source, ?), ?) > 0';
      params.push(path, path, sql.value, path, path);
      return `((json_type(event_source, ?) = 'text' AND ${test}) OR (json_type(event_source, ?) = 'array' AND agent_filter(${index}, json_extract(event_source, ?), 'array')))`;
    }
    params.push(path, path);
    return `agent_filter(${index}, json_extract(event_source, ?), json_type(event_source, ?))`;
  });
  return { conditions, params };
}
