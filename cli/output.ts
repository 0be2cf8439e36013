import { goJsonStringify } from '#lib/protocol/go-json';
import type { Io } from './io.ts';

/**
 * Upstream's output (docs/hzn-behaviour.md#output): JSON indented by 2 spaces with one trailing newline.
 * Most lists go through Go's MarshalIndent, which escapes `<>&`; a few commands use DisplayAsJson,
 * which does not (`escapeHtml: false`), and some of those print one more empty line (`extraLine`).
 */
interface JsonOptions {
  escapeHtml?: boolean;
  extraLine?: boolean;
}

export function jsonText(value: unknown, options: JsonOptions = {}): string {
  const plain = JSON.stringify(value, null, 2) ?? 'null';
  return options.escapeHtml === false ? plain : goJsonStringifyIndented(plain);
}

// goJsonStringify escapes inside strings only; applying its rule to indented text is the same.
const goJsonStringifyIndented = (text: string): string =>
  text.replace(/[<>&\u2028\u2029]/g, (ch) => goJsonStringify(ch).slice(1, -1));

export function printJson(io: Io, value: unknown, options: JsonOptions = {}): void {
  io.out(`${jsonText(value, options)}\n${options.extraLine ? '\n' : ''}`);
}

/** A map keyed by `org/id` with its keys sorted, as Go prints map[string]T. */
export function sortedMap<T>(entries: Iterable<[string, T]>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[key] = value;
  return out;
}

/** Every object's keys sorted (Go's generic maps: `exchange status`, `org list <org>`, agbot lists). */
export function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value === null || typeof value !== 'object') return value;
  return sortedMap(Object.entries(value).map(([k, v]) => [k, sortedDeep(v)] as [string, unknown]));
}

/**
 * An agent time (unix seconds) as Go's time.Time.String() in local time,
 * e.g. `2024-03-05 10:00:00 +0000 UTC`; 0 is "".
 */
export function goTime(seconds: number | undefined | null): string {
  if (!seconds) return '';
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const offsetMin = -d.getTimezoneOffset();
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  const zone = `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
  const name = offsetMin === 0 ? 'UTC' : zone.slice(0, 3);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${zone} ${name}`;
}

/** `YYYY-MM-DD hh:mm:ss` in local time (event log lines). */
export function shortTime(seconds: number): string {
  return goTime(seconds).slice(0, 19);
}
