import { describe, expect, it } from 'vitest';
import {
  ConstraintError,
  MAX_CONSTRAINT_DEPTH,
  MAX_CONSTRAINT_LENGTH,
  parseConstraint,
} from '#lib/policy/constraints';

describe('parseConstraint', () => {
  it('parses comparisons joined by && and ||, && binding tighter', () => {
    expect(parseConstraint('a == 1 || b = "x y" && c != true')).toEqual({
      kind: 'or',
      left: { kind: 'compare', name: 'a', op: '==', value: '1' },
      right: {
        kind: 'and',
        left: { kind: 'compare', name: 'b', op: '=', value: 'x y' },
        right: { kind: 'compare', name: 'c', op: '!=', value: 'true' },
      },
    });
  });

  it.each([
    'platform.memory >= 1024',
    'openhorizon.arch == amd64 AND purpose in "edge", "lab"',
    '(a < 2 || a > 5) && version in [1.0.0,2.0.0)',
    'iame2edev == true OR NONS=false',
    'x in a,b,c',
  ])('accepts %s', (expression) => {
    expect(() => parseConstraint(expression)).not.toThrow();
  });

  it('reads an in-list as a list of values', () => {
    expect(parseConstraint('x in a, "b c"')).toEqual({
      kind: 'compare',
      name: 'x',
      op: 'in',
      value: ['a', 'b c'],
    });
  });

  it.each([
    ['', 'empty'],
    ['purpose', "expected an operator after property name 'purpose'"],
    ['purpose ==', "expected a value after 'purpose =='"],
    ['a == 1 &&', 'ends too early'],
    ['a == 1 & b == 2', "unexpected '&'"],
    ['(a == 1', "')' is missing"],
    ['a == 1 b', "unexpected 'b'"],
    ['a == "open', 'not closed'],
    ['== 1', 'expected a property name'],
  ])('rejects %j (%s)', (expression, message) => {
    expect(() => parseConstraint(expression)).toThrow(ConstraintError);
    expect(() => parseConstraint(expression)).toThrow(message);
  });
});

describe('parseConstraint bounds', () => {
  it('refuses nesting deeper than the bound and text longer than the bound, with a ConstraintError', () => {
    const nested = (depth: number) => `${'('.repeat(depth)}a == 1${')'.repeat(depth)}`;
    expect(() => parseConstraint(nested(MAX_CONSTRAINT_DEPTH))).not.toThrow();
    expect(() => parseConstraint(nested(MAX_CONSTRAINT_DEPTH + 1))).toThrow(ConstraintError);
    expect(() => parseConstraint('('.repeat(10_000))).toThrow(ConstraintError);
    expect(() => parseConstraint(`a == ${'1'.repeat(MAX_CONSTRAINT_LENGTH)}`)).toThrow(/longer than/);
  });

  it.each([
    ['an unclosed string', `a == "${'\\"'.repeat(4000)}`],
    ['an unclosed range', `a in [${'1.0,'.repeat(2000)}`],
    ['a long chain', Array.from({ length: 600 }, (_, i) => `p${i} == ${i}`).join(' && ')],
    ['many open ranges', '[['.repeat(4000)],
  ])('parses or refuses 8 KB of %s in linear time', (_what, expression) => {
    const started = performance.now();
    try {
      parseConstraint(expression.slice(0, MAX_CONSTRAINT_LENGTH));
    } catch (err) {
      expect(err).toBeInstanceOf(ConstraintError);
    }
    expect(performance.now() - started).toBeLessThan(500);
  });
});
