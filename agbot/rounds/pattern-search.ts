/**
 * The pattern half of the search round (docs/protocol.md#pattern-search): each served pattern
 * whose inputs changed (its record, a node of its node orgs, a service, secret, served row or
 * deleted node agreement), or whose full rescan is due, is read once; each of its services is
 * searched (`POST /orgs/{o}/patterns/{p}/search`, no paging: every matching node at once) and
 * the nodes found with no live agreement for that service are checked and proposed to. An
 * unchanged pattern is not read again until its rescan is due.
 */

import { outOfTime, type RoundContext, splitId } from './context.ts';
import type { FeedSummary } from './feed.ts';
import { evaluatePattern } from './pattern-candidate.ts';
import { type PatternTarget, patternTargets, readPattern } from './pattern-services.ts';
import { SearchNotes } from './policy-status.ts';
import type { RoundCache } from './proposal-plan.ts';
import { proposeToFound } from './propose-found.ts';
import { searchDue } from './search.ts';
import { searchAnswer } from './wire.ts';

export async function searchAndProposePatterns(
  ctx: RoundContext,
  feed: FeedSummary,
  served: Map<string, string[]>,
  cache: RoundCache = new Map(),
): Promise<number> {
  let proposed = 0;
  const changedNodeOrgs = new Set([...feed.nodes].map((n) => splitId(n)[0]));
  for (const [patternId, nodeOrgs] of served) {
    if (outOfTime(ctx)) break;
    const stateKey = `pattern ${patternId}`;
    const due =
      feed.patterns.has(patternId) ||
      feed.catalogChanged ||
      nodeOrgs.some((o) => changedNodeOrgs.has(o)) ||
      (await searchDue(ctx, stateKey));
    if (!due) continue;
    const searchedAt = ctx.now();
    const pattern = await readPattern(ctx, patternId);
    // Gone: governance cancels its agreements; the next look is at its rescan.
    if (!pattern) {
      await ctx.store.setSearch(stateKey, { changedSince: 0, fullScanAt: searchedAt });
      continue;
    }
    let anyFailed = false;
    for (const target of patternTargets(patternId, pattern)) {
      const nodes = await searchPattern(ctx, target, nodeOrgs);
      const notes = new SearchNotes({ policy: target.policyId, pattern: patternId }, true, nodes);
      const outcome = await proposeToFound(
        ctx,
        { policy: target.policyId, pattern: patternId, logFields: { pattern: target.policyId } },
        nodes,
        notes,
        (nodeOrg, nodeId) => evaluatePattern(ctx, cache, target, nodeOrg, nodeId),
      );
      proposed += outcome.proposed;
      if (outcome.failed) anyFailed = true;
      await notes.record(ctx);
    }
    // Searched, once its nodes are proposed to; after a failure (or a crash before this line, the
    // feed not yet committed) the next round searches this pattern again.
    await ctx.store.setSearch(stateKey, { changedSince: 0, fullScanAt: anyFailed ? 0 : searchedAt });
  }
  return proposed;
}

/** The nodes registered with the pattern that have no agreement for this service yet. */
async function searchPattern(
  ctx: RoundContext,
  target: PatternTarget,
  nodeOrgids: string[],
): Promise<string[]> {
  const [org, name] = splitId(target.patternId);
  const { serviceOrgid, serviceUrl, serviceArch } = target.service;
  const body = {
    serviceUrl: `${serviceOrgid}/${serviceUrl}`,
    ...(serviceArch === '' || serviceArch === '*' ? {} : { arch: serviceArch }),
    nodeOrgids,
    secondsStale: ctx.settings.activeDeviceTimeoutS,
    numEntries: 0,
  };
  const answer = searchAnswer.safeParse(await ctx.exchange.searchPattern(org, name, body));
  return answer.success ? answer.data.nodes.map((n) => n.id) : [];
}
