import type { SearchState } from '#lib/agbot-store/contract';
import { evaluate } from './candidate.ts';
import { outOfTime, type RoundContext, splitId } from './context.ts';
import type { FeedSummary } from './feed.ts';
import { SearchNotes } from './policy-status.ts';
import type { RoundCache } from './proposal-plan.ts';
import { proposeToFound } from './propose-found.ts';
import { searchDue, searchPolicy } from './search.ts';
import { deploymentPolicy, oneOf } from './wire.ts';

/**
 * Searches every served policy whose inputs changed (its own record: a full search; a node of
 * its node orgs, a service, a secret, a served row: nodes changed since the last search), or
 * whose full rescan is due, or that has nodes marked to revisit (a node that cancelled), and proposes to each node found that has no live agreement with this
 * policy and passes the checks. The search moves on only once its nodes are proposed to: if a
 * proposal fails, or the invocation dies on the way, the next round searches from the previous
 * search again.
 */
export async function searchAndPropose(
  ctx: RoundContext,
  feed: FeedSummary,
  served: Map<string, string[]>,
): Promise<number> {
  const cache: RoundCache = new Map();
  let proposed = 0;
  const changedNodeOrgs = new Set([...feed.nodes].map((n) => splitId(n)[0]));
  for (const [policyId, nodeOrgs] of served) {
    if (outOfTime(ctx)) break;
    const full = feed.policies.has(policyId);
    const revisits = await ctx.store.revisits(policyId);
    const due =
      full ||
      revisits.length > 0 ||
      feed.catalogChanged ||
      nodeOrgs.some((o) => changedNodeOrgs.has(o)) ||
      (await searchDue(ctx, policyId));
    if (!due) continue;
    const [org, name] = splitId(policyId);
    const policy = oneOf(
      await ctx.exchange.deploymentPolicy(org, name),
      'businessPolicy',
      policyId,
      deploymentPolicy,
    );
    if (!policy) {
      await ctx.store.dropPolicyStatus(policyId);
      continue;
    }
    const before = await ctx.store.getSearch(policyId);
    const fullScan = full || !before || ctx.now() - before.fullScanAt >= ctx.settings.fullRescanMs;
    const { nodes: found, next } = await searchPolicy(ctx, policyId, nodeOrgs, full);
    const nodes = [...new Set([...found, ...revisits])];
    // Until these nodes are proposed to, a crash must leave the search to be done again from the
    // previous one (not resumed: the Exchange's paging session has moved past this batch).
    const redo: SearchState = before ? { ...before, session: undefined } : { changedSince: 0, fullScanAt: 0 };
    if (nodes.length > 0) await ctx.store.setSearch(policyId, redo);
    const notes = new SearchNotes({ policy: policyId }, fullScan, nodes);
    const outcome = await proposeToFound(
      ctx,
      { policy: policyId, logFields: { policy: policyId } },
      nodes,
      notes,
      (nodeOrg, nodeId) => evaluate(ctx, cache, { org, name }, policy, nodeOrg, nodeId),
    );
    proposed += outcome.proposed;
    // A failed proposal leaves `redo` stored: the next round sees those nodes again.
    if (!outcome.failed) {
      await ctx.store.setSearch(policyId, next);
      await ctx.store.revisited(policyId, revisits);
    }
    await notes.record(ctx);
  }
  return proposed;
}
