import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLike, filterMatcher, filterPrefix, likeMatcher, MAX_FILTER_LENGTH, runLike } from '#lib/like';

/**
 * The matchers replaced regular expressions; these are those regexes, kept as oracles (with the
 * `u` flag for both: `_` is one character, a code point, as in Postgres).
 */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function oldFilter(value: string, filter: string): boolean {
  if (!filter.includes('%')) return value === filter;
  const source = Array.from(filter)
    .map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : escapeRegExp(ch)))
    .join('');
  return new RegExp(`^${source}$`, 'su').test(value);
}

function oldNodeLike(value: string, pattern: string): boolean {
  const chars = Array.from(pattern);
  let source = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i] as string);
    else source += char === '%' ? '.*' : char === '_' ? '.' : escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, 'su').test(value);
}

const text = (alphabet: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength }).map((chars) => chars.join(''));
const valueChars = ['a', 'b', '.', '*', '\n', '😀', '%', '_', '\\', '$'];
const patternChars = [...valueChars, '%', '%', '_'];
const RUNS = { numRuns: 3000, seed: 20261123 };

describe('LIKE filters', () => {
  it('match exactly as the old regular expressions did (exact-or-LIKE filters)', () => {
    fc.assert(
      fc.property(text(valueChars, 12), text(patternChars, 8), (value, filter) => {
        expect(filterMatcher(filter)(value)).toBe(oldFilter(value, filter));
      }),
      RUNS,
    );
  });

  it('match exactly as the old regular expressions did (node filters, with backslash escapes)', () => {
    fc.assert(
      fc.property(text(valueChars, 12), text(patternChars, 8), (value, pattern) => {
        expect(likeMatcher(pattern)(value)).toBe(oldNodeLike(value, pattern));
      }),
      RUNS,
    );
  });

  it('match values built from the pattern itself (the cases random values rarely hit)', () => {
    const fill = (pattern: string, runs: string[]) =>
      Array.from(pattern)
        .map((ch, i) => (ch === '%' ? (runs[i % runs.length] ?? '') : ch === '_' ? 'x' : ch))
        .join('');
    fc.assert(
      fc.property(
        text(patternChars, 10),
        fc.array(text(valueChars, 4), { minLength: 1 }),
        (pattern, runs) => {
          const filter = `${pattern}%`;
          const value = fill(filter, runs);
          expect(filterMatcher(filter)(value)).toBe(oldFilter(value, filter));
          expect(filterMatcher(filter)(value)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('treat undefined as no filter and a value without % as an exact match', () => {
    expect(filterMatcher(undefined)('anything')).toBe(true);
    expect(filterMatcher('a_c')('abc')).toBe(false);
    expect(filterMatcher('a_c')('a_c')).toBe(true);
    expect(filterMatcher('%a_c')('xxabc')).toBe(true);
    expect(filterMatcher('A%')('abc')).toBe(false);
    expect(likeMatcher('a\\%')('a%')).toBe(true);
    expect(likeMatcher('a\\%')('ab')).toBe(false);
    expect(filterPrefix('org/no%de')).toBe('org/no');
  });

  it('cost value length × pattern words, never more: a backtracking matcher explodes on these', () => {
    // `%a%a…%a%b` against aaaa…: a regex backtracks through every split of the a's.
    const pathological = `${'%a'.repeat(200)}%b`;
    const compiled = compileLike(pathological);
    expect(compiled.words).toBe(Math.ceil((compiled.tokens + 1) / 32));
    for (const length of [1_000, 4_000, 16_000]) {
      const result = runLike('a'.repeat(length), compiled);
      expect(result.matched).toBe(false);
      expect(result.steps).toBeLessThanOrEqual(length * compiled.words);
    }
    const four = runLike('a'.repeat(4_000), compiled).steps;
    const sixteen = runLike('a'.repeat(16_000), compiled).steps;
    expect(sixteen).toBe(4 * four);
  });

  it('stay linear for the longest filter against a value of a whole node body (350,000 characters)', () => {
    const longest = `${'%a_'.repeat(MAX_FILTER_LENGTH / 3)}%b`.slice(0, MAX_FILTER_LENGTH);
    const compiled = compileLike(longest);
    const value = 'a'.repeat(350_000);
    const result = runLike(value, compiled);
    expect(result.steps).toBeLessThanOrEqual(value.length * compiled.words);
    expect(compiled.words).toBeLessThanOrEqual(Math.ceil((MAX_FILTER_LENGTH + 1) / 32));
  });
});
