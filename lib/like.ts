import * as z from 'zod';
import { MAX_ID_LENGTH } from './ids.ts';

/**
 * Upstream's list filters are SQL LIKE patterns: `%` any run, `_` any one character (a code point,
 * as Postgres counts), case-sensitive. They are matched here without a regular expression: the
 * pattern is a small NFA (one state per token) run bit-parallel over the value ("Shift-And"), so a
 * match costs value length × ⌈pattern length / 32⌉ word steps, whatever the pattern. A backtracking
 * regex took seconds on `%a%a%b` against a 4,000-character name.
 */

/**
 * Longest filter accepted (400 naming the query field beyond it): room for an exact `org/id`
 * (2 × MAX_ID_LENGTH + 1) with margin; it bounds a match's cost to 33 words per character.
 */
export const MAX_FILTER_LENGTH = 4 * MAX_ID_LENGTH;

/** A filter query parameter. */
export const filterParam = z
  .string()
  .max(MAX_FILTER_LENGTH, `must be at most ${MAX_FILTER_LENGTH} characters`);

/** A compiled pattern: bit i of a mask stands for token i; state m (past the last token) accepts. */
interface LikePattern {
  readonly tokens: number;
  readonly words: number;
  /** Positions whose token is this literal character. */
  readonly literal: Map<string, Uint32Array>;
  /** Positions whose token is `_`. */
  readonly one: Uint32Array;
  /** Positions whose token is `%` (never two in a row: `%%` is one `%`). */
  readonly any: Uint32Array;
}

const ANY = 0;
const ONE = 1;
type Token = string | typeof ANY | typeof ONE;

function tokenize(pattern: string, backslashEscapes: boolean): Token[] {
  const chars = Array.from(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (backslashEscapes && char === '\\' && i + 1 < chars.length) tokens.push(chars[++i] as string);
    else if (char === '%') {
      if (tokens.at(-1) !== ANY) tokens.push(ANY);
    } else tokens.push(char === '_' ? ONE : char);
  }
  return tokens;
}

/** `backslashEscapes`: `\x` is the literal x, as Postgres's default LIKE escape. */
export function compileLike(pattern: string, options: { backslashEscapes?: boolean } = {}): LikePattern {
  const tokens = tokenize(pattern, options.backslashEscapes ?? false);
  const words = Math.ceil((tokens.length + 1) / 32);
  const literal = new Map<string, Uint32Array>();
  const one = new Uint32Array(words);
  const any = new Uint32Array(words);
  tokens.forEach((token, position) => {
    const bit = 1 << (position % 32);
    const word = position >>> 5;
    if (token === ANY) any[word] = (any[word] as number) | bit;
    else if (token === ONE) one[word] = (one[word] as number) | bit;
    else {
      const mask = literal.get(token) ?? new Uint32Array(words);
      mask[word] = (mask[word] as number) | bit;
      literal.set(token, mask);
    }
  });
  return { tokens: tokens.length, words, literal, one, any };
}

/** A `%` matches the empty run too: a state before a `%` is also the state after it. */
function skipEmptyRuns(states: Uint32Array, any: Uint32Array): void {
  let carry = 0;
  for (let w = 0; w < states.length; w++) {
    const before = (states[w] as number) & (any[w] as number);
    states[w] = ((states[w] as number) | (before << 1) | carry) >>> 0;
    carry = before >>> 31;
  }
}

/** Whether `value` matches, and the word steps it took (value length × words, at most). */
export function runLike(value: string, pattern: LikePattern): { matched: boolean; steps: number } {
  const { words, literal, one, any } = pattern;
  const states = new Uint32Array(words);
  states[0] = 1;
  skipEmptyRuns(states, any);
  let steps = 0;
  for (const char of value) {
    const same = literal.get(char);
    let carry = 0;
    let alive = 0;
    for (let w = 0; w < words; w++) {
      steps++;
      const current = states[w] as number;
      // A state advances past a token the character matches, and stays inside a `%`.
      const advancing = current & ((same?.[w] ?? 0) | (one[w] as number));
      const next = ((advancing << 1) | carry | (current & (any[w] as number))) >>> 0;
      carry = advancing >>> 31;
      states[w] = next;
      alive |= next;
    }
    if (alive === 0) return { matched: false, steps };
    skipEmptyRuns(states, any);
  }
  const accept = pattern.tokens;
  return { matched: (((states[accept >>> 5] as number) >>> (accept % 32)) & 1) === 1, steps };
}

/** SQL LIKE as Postgres does it (backslash escapes), for filters that are always patterns. */
export function likeMatcher(pattern: string): (value: string) => boolean {
  const compiled = compileLike(pattern, { backslashEscapes: true });
  return (value) => runLike(value, compiled).matched;
}

/**
 * Upstream's exact-or-LIKE filters: a value containing `%` is a LIKE pattern (no escapes); any
 * other must match exactly. Undefined matches everything. Compile once, match many.
 */
export function filterMatcher(filter: string | undefined): (value: string) => boolean {
  if (filter === undefined) return () => true;
  if (!filter.includes('%')) return (value) => value === filter;
  const compiled = compileLike(filter);
  return (value) => runLike(value, compiled).matched;
}

/** One predicate from several exact-or-LIKE filters on fields of a record, each compiled once. */
export function matchesAllFilters<R>(
  ...filters: [filter: string | undefined, field: (record: R) => string][]
): (record: R) => boolean {
  const tests = filters.map(([filter, field]) => {
    const matches = filterMatcher(filter);
    return (record: R) => matches(field(record));
  });
  return (record) => tests.every((test) => test(record));
}

/** The literal text every match of `filter` starts with (for a begins_with key condition). */
export function filterPrefix(filter: string | undefined): string {
  if (filter === undefined) return '';
  if (!filter.includes('%')) return filter;
  return filter.split(/[%_]/)[0] ?? '';
}
