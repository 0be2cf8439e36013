import { describe, expect, it } from 'vitest';
import { resolvePlan } from '#lib/rollout/plan';
import { assignWaves, rolloutOrder, waveSizes } from '#lib/rollout/waves';

const nodes = (n: number) => Array.from({ length: n }, (_, i) => ({ node: `org/n${i}` }));

describe('waves', () => {
  it('cut the targeted nodes by count and percent, rounded up; the last wave takes the rest', () => {
    const plan = resolvePlan({ waves: [{ nodes: 1 }, { percent: 10 }, { nodes: 2 }] });
    expect(waveSizes(plan, 4)).toEqual([1, 1, 2]);
    expect(waveSizes(plan, 200)).toEqual([1, 20, 179]);
    expect(waveSizes(plan, 1)).toEqual([1, 0, 0]);
    expect(waveSizes(plan, 0)).toEqual([0, 0, 0]);
  });

  it('order the nodes stably: the same node in the same place whatever the others', () => {
    const all = rolloutOrder('org/web', nodes(50));
    const some = rolloutOrder(
      'org/web',
      nodes(50).filter((_, i) => i % 3 === 0),
    );
    expect(all.filter((n) => some.includes(n))).toEqual(some);
    expect(rolloutOrder('org/web', [...nodes(50)].reverse())).toEqual(all);
    expect(rolloutOrder('org/other', nodes(50))).not.toEqual(all);
  });

  it('put the canary matches first, so they fill the first wave', () => {
    const targeted = nodes(10).map((n) => ({ ...n, canary: n.node === 'org/n7' }));
    const seats = assignWaves(resolvePlan({ waves: [{ nodes: 1 }, {}] }), 'org/web', targeted);
    expect(seats.filter((s) => s.wave === 0).map((s) => s.node)).toEqual(['org/n7']);
    expect(seats.filter((s) => s.wave === 1)).toHaveLength(9);
    expect(seats.map((s) => s.order)).toEqual([...Array(10).keys()]);
  });

  it('skip empty waves when there are fewer nodes than waves', () => {
    const seats = assignWaves(resolvePlan({ waves: [{ nodes: 2 }, { nodes: 2 }, {}] }), 'org/web', nodes(3));
    expect(seats.map((s) => s.wave)).toEqual([0, 0, 1]);
  });
});
