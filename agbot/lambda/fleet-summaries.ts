import { AgbotExchangeError } from '../exchange.ts';
import { outOfTime, type RoundContext } from '../rounds/context.ts';
import type { FeedSummary } from '../rounds/feed.ts';

/**
 * The in-stack agbot keeps the console's fleet summaries (docs/console.md, "The fleet summary"),
 * so the Fleet page's first request finds one instead of reading every node of the org. The agbot
 * only asks (GET /console/orgs/{org}/fleet with a maxAge): the console's function computes and
 * stores it, so the agbot holds no node in memory, and its role reaches no node item.
 */

/** An org whose nodes changed gets a new summary at most this often (each reads every node). */
export const AFTER_CHANGE_MS = 5 * 60_000;
/** Any other org at least this often, well inside the day the console's first render accepts. */
export const REFRESH_MS = 6 * 3600_000;
/** Asks per round at most: each may wait on a computation (about 1 s per 10,000 nodes on AWS). */
export const ASKS_PER_ROUND = 10;

export type FleetSummaryKeeper = NonNullable<RoundContext['fleetSummaries']>;

const orgOf = (full: string) => full.slice(0, full.indexOf('/'));

/** One per warm instance: what it asked, and when, is kept in memory (a cold start asks again). */
export function fleetSummaryKeeper(now: () => number = Date.now): FleetSummaryKeeper {
  const asked = new Map<string, number>();
  const changed = new Set<string>();
  return {
    async refresh(ctx: RoundContext, feed: FeedSummary): Promise<void> {
      for (const node of [...feed.nodes, ...feed.nodesDeleted]) changed.add(orgOf(node));
      let asks = 0;
      for (const org of new Set([...changed, ...ctx.memory.servedOrgs])) {
        if (asks >= ASKS_PER_ROUND || outOfTime(ctx)) return;
        const last = asked.get(org);
        const dirty = changed.has(org);
        const since = last === undefined ? Number.POSITIVE_INFINITY : now() - last;
        if (since < (dirty ? AFTER_CHANGE_MS : REFRESH_MS)) continue;
        asks += 1;
        asked.set(org, now());
        changed.delete(org);
        try {
          // Changed nodes: a new one (unless one is under 30 s old); else the kept one if young enough.
          await ctx.exchange.fleetSummary(org, dirty ? undefined : REFRESH_MS / 1000);
        } catch (error) {
          // Refused: asked again after AFTER_CHANGE_MS. Not a timeout: the Exchange goes on computing it.
          if (dirty && error instanceof AgbotExchangeError) changed.add(org);
          ctx.log.warn('fleet summary not kept', { org, error: (error as Error).message });
        }
      }
    },
  };
}
