import { badInput } from '../ground/errors.ts';
import type { EventField, EventFilter } from '../store/store.ts';

const COLUMNS = new Set(['record_id', 'timestamp', 'severity', 'message', 'event_code', 'source_type']);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Most selectors per query and longest attribute name or value: a substring selector is tested
 * against every candidate message (SQLite's instr is quadratic at worst), so its length is bounded.
 */
const MAX_SELECTORS = 32;
const MAX_SELECTOR_LENGTH = 1024;

/**
 * Event selectors from a query string, as upstream's agent reads them: `attr=value` (equality;
 * `true`/`false` and numbers are typed), `attr=~text` (substring), `attr=>v` / `attr=<v` (numeric
 * when v is a number, else string order). Base attributes are the event's own fields plus
 * `time_since` (whole hours since the event); any other name is read from `event_source`
 * (dots go deeper). Repeated and different parameters are all ANDed.
 */
export function parseSelectors(rawQuery: string, nowSeconds: number): EventFilter[] {
  const filters: EventFilter[] = [];
  const params = [...new URLSearchParams(rawQuery)];
  if (params.length > MAX_SELECTORS)
    throw badInput(`at most ${MAX_SELECTORS} selectors are accepted`, 'selection');
  for (const [name, raw] of params) {
    if (name.length > MAX_SELECTOR_LENGTH || raw.length > MAX_SELECTOR_LENGTH) {
      const what = `${name.slice(0, 40)}${name.length > 40 ? '…' : ''}`;
      throw badInput(`selector ${what} is longer than ${MAX_SELECTOR_LENGTH} characters`, 'selection');
    }
    // SQLite's JSON paths cannot spell a key holding `"` or NUL (and event sources have none).
    if (name === '' || name.split('.').some((part) => part === '') || /["\0]/.test(name)) {
      throw badInput(`"${name}" is not a valid event attribute`, 'selection');
    }
    const field: EventField =
      name === 'time_since'
        ? { column: 'timestamp' }
        : COLUMNS.has(name)
          ? { column: name as 'record_id' }
          : { path: name.split('.') };
    const test = predicate(name, raw);
    if (name === 'time_since') {
      const hours = (v: unknown) => (typeof v === 'number' ? Math.floor((nowSeconds - v) / 3600) : undefined);
      filters.push({ field, test: (v) => test(hours(v)) });
      continue;
    }
    const sql = sqlOf(raw);
    filters.push(sql ? { field, test: anyOf(test), sql } : { field, test: anyOf(test) });
  }
  return filters;
}

/** An array-valued source attribute matches when one of its elements does. */
const anyOf = (test: (v: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) ? value.some(test) : test(value);

/** The plain-string cases SQLite can test by itself on text columns (same meaning as `predicate`). */
function sqlOf(raw: string): { op: 'equals' | 'contains'; value: string } | undefined {
  if (raw.length > 1 && raw[0] === '~') return { op: 'contains', value: raw.slice(1) };
  if (raw.length > 1 && (raw[0] === '>' || raw[0] === '<')) return undefined;
  if (/^(true|TRUE|false|FALSE)$/.test(raw) || NUMBER.test(raw)) return undefined;
  return { op: 'equals', value: raw };
}

function predicate(name: string, raw: string): (value: unknown) => boolean {
  const first = raw[0];
  const rest = raw.slice(1);
  if (raw.length > 1 && first === '~') return (v) => typeof v === 'string' && v.includes(rest);
  if (raw.length > 1 && (first === '>' || first === '<')) {
    const sign = first === '>' ? 1 : -1;
    if (NUMBER.test(rest)) {
      const bound = Number(rest);
      return (v) => {
        const n = numeric(v);
        return n !== undefined && Math.sign(n - bound) === sign;
      };
    }
    return (v) => typeof v === 'string' && (sign > 0 ? v > rest : v < rest);
  }
  if (name === 'time_since' && !NUMBER.test(raw)) {
    throw badInput(`time_since must be a number of hours, not "${raw}"`, 'selection');
  }
  if (raw === 'true' || raw === 'TRUE' || raw === 'false' || raw === 'FALSE') {
    const wanted = raw.toLowerCase() === 'true';
    return (v) => v === wanted;
  }
  if (NUMBER.test(raw)) {
    const wanted = Number(raw);
    return (v) => numeric(v) === wanted;
  }
  return (v) => v === raw;
}

/** A number, or a string that reads as one (upstream compares `record_id=5` numerically). */
function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMBER.test(value)) return Number(value);
  return undefined;
}
