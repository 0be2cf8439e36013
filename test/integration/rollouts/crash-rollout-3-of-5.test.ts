import { describe, expect, it } from 'vitest';
import { crashEachRolloutWrite } from './crash/life.ts';

// A rollout's life, killed after each write of slice 3 of the 5 of those crash/life.ts chooses
// (five files, so that the slices run side by side).
describe('a rollout in the in-stack agbot killed after each write of slice 3 of 5', () => {
  it('ends as without a crash: completed, both nodes on 1.1.0, one proposal each, the canary first', async () => {
    expect(await crashEachRolloutWrite(3, 5)).toBeGreaterThan(5);
  }, 600_000);
});
