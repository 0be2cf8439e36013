import type { SearchState } from '#lib/agbot-store/contract';
import type { RoundContext } from './context.ts';
import { searchAnswer } from './wire.ts';

/** Upstream's AgreementBatchSize: nodes per search page. */
export const PAGE_SIZE = 300;
/**
 * `changedSince` is the agbot's clock and the Exchange compares it with its own: this much
 * overlap tolerates clocks a little apart (a node seen twice is skipped by the store's check).
 */
const CLOCK_SLACK_S = 10;
/** Pages read per policy in one round; a longer search goes on next round with its session. */
export const SEARCH_MAX_PAGES = 10;

/** Whether `policy` must be searched this round: never searched, a search under way, or a full rescan due. */
export async function searchDue(ctx: RoundContext, policy: string): Promise<boolean> {
  const state = await ctx.store.getSearch(policy);
  return !state || state.session !== undefined || ctx.now() - state.fullScanAt >= ctx.settings.fullRescanMs;
}

/**
 * POST /orgs/{org}/business/policies/{p}/search with upstream's paging (docs/exchange-catalog.md#policy-search): nodes
 * changed since the last completed search (`changedSince` = its start − 10 s of clock slack; upstream takes 1 s), all of them on a
 * full rescan or when `full`; a full page means more, asked with the same session; a 409 gives
 * the Exchange's session, which is adopted. Nothing is stored here: the caller stores `next` once
 * it has proposed to the nodes found (agbot/rounds/search-round.ts), so a crash in between never
 * moves the search past nodes it did not propose to.
 */
export async function searchPolicy(
  ctx: RoundContext,
  policy: string,
  nodeOrgids: string[],
  full: boolean,
): Promise<{ nodes: string[]; next: SearchState }> {
  const now = ctx.now();
  const stored = await ctx.store.getSearch(policy);
  const fullScan = full || !stored || now - stored.fullScanAt >= ctx.settings.fullRescanMs;
  const state: SearchState = {
    changedSince: fullScan ? 0 : (stored?.changedSince ?? 0),
    fullScanAt: fullScan ? now : (stored?.fullScanAt ?? now),
    session: (fullScan ? undefined : stored?.session) ?? `${ctx.config.org}/${ctx.config.id}@${now}`,
  };
  const startedAt = fullScan || !stored?.session ? now : startOf(stored.session, now);
  const at = policy.indexOf('/');
  const [org, name] = [policy.slice(0, at), policy.slice(at + 1)];
  const found: string[] = [];
  for (let page = 0; page < SEARCH_MAX_PAGES; page++) {
    const body = {
      changedSince: state.changedSince,
      nodeOrgids,
      numEntries: PAGE_SIZE,
      session: state.session,
    };
    let answer = searchAnswer.safeParse(await ctx.exchange.searchPolicy(org, name, body));
    if (
      answer.success &&
      answer.data.session &&
      answer.data.nodes.length === 0 &&
      answer.data.session !== state.session
    ) {
      // 409: the Exchange's paging session differs; continue in its session.
      state.session = answer.data.session;
      answer = searchAnswer.safeParse(
        await ctx.exchange.searchPolicy(org, name, { ...body, session: state.session }),
      );
    }
    const nodes = answer.success ? answer.data.nodes : [];
    found.push(...nodes.map((n) => n.id));
    if (nodes.length < PAGE_SIZE) {
      // Complete: the next search asks for nodes changed since this one started.
      const next = {
        changedSince: Math.max(0, Math.floor(startedAt / 1000) - CLOCK_SLACK_S),
        fullScanAt: state.fullScanAt,
      };
      return { nodes: found, next };
    }
  }
  return { nodes: found, next: state };
}

/** When a resumed search started (our sessions end in `@<ms>`; an adopted one counts from now). */
const startOf = (session: string, now: number): number =>
  Number(session.slice(session.lastIndexOf('@') + 1)) || now;
