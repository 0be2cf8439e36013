import { describe, expect, it } from 'vitest';
import { satisfies } from '#lib/protocol/constraint-eval';
import type { Property } from '#lib/protocol/policy-document';

const props: Property[] = [
  { name: 'purpose', value: 'demo' },
  { name: 'cpus', value: 4 },
  { name: 'ratio', value: 0.5 },
  { name: 'gpu', value: true },
  { name: 'zones', value: 'east,west, "north"', type: 'list of strings' },
  { name: 'tags', value: ['a', 'b'] },
  { name: 'fw', value: '1.4.2', type: 'version' },
  { name: 'plainVersion', value: '2.0' },
  { name: 'csv', value: 'x,y' },
  { name: 'quoted name', value: 'has space' },
];
const holds = (...constraints: string[]) => satisfies(constraints, props).ok;

describe('constraint evaluation (anax semantics)', () => {
  it.each([
    ['purpose == demo', true],
    ['purpose = demo', true],
    ['purpose == "demo"', true],
    ['purpose != demo', false],
    ['purpose != prod', true],
    ['purpose in prod,demo', true],
    ['purpose in prod,test', false],
    ['purpose > demo', false], // strings know ==, =, != and in only
    ['missing == x', false],
    ['missing != x', false], // a missing property never satisfies, whatever the operator
    ['cpus == 4', true],
    ['cpus >= 4 && cpus < 5', true],
    ['cpus > 4', false],
    ['cpus <= 3.5', false],
    ['cpus != 4', false],
    ['cpus in 2,4', true],
    ['cpus == four', false],
    ['ratio < 1', true],
    ['ratio == 5e-1', true],
    ['gpu == true', true],
    ['gpu = TRUE', true],
    ['gpu != false', true],
    ['gpu == 1', true],
    ['gpu == yes', false],
    ['gpu > false', false],
    ['zones == west', true],
    ['zones == north', true],
    ['zones != south', true],
    ['zones != east', false],
    ['zones in south,east', true],
    ['zones in south,central', false],
    ['tags == b', true],
    ['tags in c,a', true],
    ['fw in [1.0.0,2.0.0)', true],
    ['fw in [1.4.2,1.4.2]', true],
    ['fw in (1.4.2,2.0.0]', false],
    ['fw in [2.0.0,INFINITY)', false],
    ['fw in 1.4', true], // a single version means [1.4,INFINITY)
    ['plainVersion in [1.0.0,3.0.0)', true], // a version-looking value against a range
    ['csv == y', true], // == matches one item of a comma-separated value, as upstream
    ['csv != y', true], // but != on a plain string compares the whole value
    ['purpose == demo || cpus > 100', true],
    ['purpose == prod || cpus > 100', false],
    ['purpose == demo && (cpus > 100 || gpu == true)', true],
    ['purpose == demo AND gpu == false OR cpus == 4', true],
  ])('%s → %s', (constraint, expected) => {
    expect(holds(constraint)).toBe(expected);
  });

  it('ANDs the expressions of a list, and an empty list always holds', () => {
    expect(holds('purpose == demo', 'cpus == 4')).toBe(true);
    expect(holds('purpose == demo', 'cpus == 5')).toBe(false);
    expect(satisfies([], [])).toEqual({ ok: true });
  });

  it('fails (without throwing) on an expression that does not parse, and says which', () => {
    const result = satisfies(['purpose =='], props);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/constraint "purpose ==" does not parse/);
    expect(satisfies([`${'('.repeat(100)}a == b${')'.repeat(100)}`], props).ok).toBe(false);
  });

  it('names the unsatisfied expression', () => {
    const result = satisfies(['purpose == demo', 'cpus > 8'], props);
    expect(result).toEqual({ ok: false, reason: 'constraint "cpus > 8" is not satisfied' });
  });
});
