import { describe, expect, it } from 'vitest';
import { crashEachWrite } from './crash/scenario.ts';

// One agreement's life, killed after each of its writes 10 to 18 (crash/scenario.ts says how).
describe('the in-stack agbot killed after one of its writes 10 to 18', () => {
  it('finishes the work in the next invocations: one proposal, the same end, nothing half done', async () => {
    expect(await crashEachWrite(10, 18)).toHaveLength(9);
  }, 600_000);
});
