import { describe, expect, it } from 'vitest';
import { AgbotExchangeError } from '../exchange.ts';
import type { RoundContext } from '../rounds/context.ts';
import type { FeedSummary } from '../rounds/feed.ts';
import { AFTER_CHANGE_MS, ASKS_PER_ROUND, fleetSummaryKeeper } from './fleet-summaries.ts';

/** A round as the keeper reads it: the Exchange's answer to each ask given by `answer`. */
function round(served: string[], answer: (org: string) => Promise<unknown> = async () => ({})) {
  const asked: string[] = [];
  const ctx = {
    exchange: {
      fleetSummary: (org: string) => {
        asked.push(org);
        return answer(org);
      },
    },
    memory: { servedOrgs: new Set(served) },
    log: { warn: () => undefined },
    now: () => 0,
  } as unknown as RoundContext;
  return { ctx, asked };
}
const feed = (nodes: string[]) => ({ nodes: new Set(nodes), nodesDeleted: new Set<string>() }) as FeedSummary;

describe('the fleet summary keeper', () => {
  it(`asks at most ${ASKS_PER_ROUND} orgs a round, changed ones first, and the rest next round`, async () => {
    let now = 0;
    const keeper = fleetSummaryKeeper(() => now);
    const orgs = Array.from({ length: 15 }, (_, i) => `o${i}`);
    const first = round(orgs);
    await keeper.refresh(first.ctx, feed(['o14/n1']));
    expect(first.asked).toEqual(['o14', ...orgs.slice(0, ASKS_PER_ROUND - 1)]);
    now += 1;
    const second = round(orgs);
    await keeper.refresh(second.ctx, feed([]));
    expect(second.asked).toEqual(orgs.slice(ASKS_PER_ROUND - 1, 14));
  });

  it('asks nothing past the round deadline', async () => {
    const { ctx, asked } = round(['a', 'b']);
    ctx.deadline = 0;
    await fleetSummaryKeeper(() => 0).refresh(ctx, feed(['a/n']));
    expect(asked).toEqual([]);
  });

  it('asks a refused org again after 5 minutes; one that timed out (still computing) only at its next change', async () => {
    let now = 0;
    const keeper = fleetSummaryKeeper(() => now);
    const failing = (org: string) =>
      Promise.reject(org === 'refused' ? new AgbotExchangeError(503, 'GET', '') : new Error('timed out'));
    await keeper.refresh(round([], failing).ctx, feed(['refused/n', 'slow/n']));
    now += AFTER_CHANGE_MS;
    const later = round([]);
    await keeper.refresh(later.ctx, feed([]));
    expect(later.asked).toEqual(['refused']);
  });
});
