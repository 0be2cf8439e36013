import { describe, expect, it } from 'vitest';
import { crashEachWrite } from './crash/scenario.ts';

// One agreement's life, killed after each of its writes from the 19th to its last (the life has
// at least 20 writes), so that together with the other crash-writes files every write is covered.
describe('the in-stack agbot killed after one of its writes 19 to the last', () => {
  it('finishes the work in the next invocations: one proposal, the same end, nothing half done', async () => {
    expect((await crashEachWrite(19)).length).toBeGreaterThanOrEqual(2);
  }, 600_000);
});
