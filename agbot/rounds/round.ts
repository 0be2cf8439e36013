/**
 * One round of the agbot (docs/agbot.md "A round"): the feed (also the heartbeat), the mailbox,
 * then, on one listing of the live agreements, proposals cut short sent again and governance
 * (timeouts 201, policy and node changes 204, nodes gone, node health, secret updates), then the
 * searches of served policies and patterns whose inputs changed and the proposals to the nodes
 * they return.
 * The feed cursor is stored last, so a round that fails is redone from the same changes; so is
 * a round that reached its deadline (the in-stack agbot's), which answers 'unfinished'. The
 * cursor moves only from where this round read it, so of two overlapping rounds one commits and
 * the other is told and stops there (its proposals were held to the store's live-agreement guard).
 */
import { servedOrgs, serveNewOrgs } from '../serve-all.ts';
import { outOfTime, type RoundContext } from './context.ts';
import { readFeed } from './feed.ts';
import { governChanges } from './govern.ts';
import { LiveAgreements } from './live-agreements.ts';
import { mailboxDue, readMailbox } from './mailbox.ts';
import { governNodeHealth } from './node-health.ts';
import { searchAndProposePatterns } from './pattern-search.ts';
import { pruneStatuses } from './policy-status.ts';
import { resumeProposals } from './resume-proposals.ts';
import { searchAndPropose } from './search-round.ts';
import { sendSecretUpdates } from './secrets-updates.ts';
import { servedPatterns, servedPolicies } from './served.ts';
import { cancelTimedOut } from './timeouts.ts';
import { recordWorkloads } from './workload-status.ts';

export type RoundOutcome = 'complete' | 'unfinished';

export async function protocolRound(ctx: RoundContext): Promise<RoundOutcome> {
  const startedAt = ctx.now();
  const feed = await readFeed(ctx);
  ctx.memory.feedSeenUpTo = feed.seenUpTo;
  let newOrgs = false;
  if (ctx.settings.serveAll) {
    if (!ctx.memory.servedOrgsLoaded) {
      for (const org of await servedOrgs(ctx.exchange)) ctx.memory.servedOrgs.add(org);
      ctx.memory.servedOrgsLoaded = true;
    }
    const added = await serveNewOrgs(ctx.exchange, ctx.memory.servedOrgs, feed.orgs);
    if (added.length > 0) ctx.log.info('serving orgs', { orgs: added });
    newOrgs = added.length > 0;
  }
  const readAt = ctx.memory.served?.readAt ?? 0;
  const served = await servedPolicies(
    ctx,
    newOrgs || feed.served || feed.policies.size > 0 || ctx.now() - readAt >= ctx.settings.fullRescanMs,
  );
  const patternsReadAt = ctx.memory.servedPatterns?.readAt ?? 0;
  const patterns = await servedPatterns(
    ctx,
    newOrgs ||
      feed.served ||
      feed.patterns.size > 0 ||
      ctx.now() - patternsReadAt >= ctx.settings.fullRescanMs,
  );
  if (mailboxDue(ctx, feed)) await readMailbox(ctx);
  const live = await LiveAgreements.read(ctx.store);
  await ctx.rollouts?.prepare(ctx, feed, served);
  await resumeProposals(ctx, live, startedAt);
  await cancelTimedOut(ctx, live);
  await governChanges(ctx, live, feed, served, patterns);
  await governNodeHealth(ctx, live);
  await recordWorkloads(ctx, live, feed);
  await sendSecretUpdates(ctx, live, feed);
  // Before the searches: a node admitted (or rolled back) here is proposed its version in this round.
  if (!outOfTime(ctx)) await ctx.rollouts?.advance(ctx, live, feed);
  await searchAndPropose(ctx, feed, served);
  if (outOfTime(ctx)) return 'unfinished';
  await searchAndProposePatterns(ctx, feed, patterns);
  if (outOfTime(ctx)) return 'unfinished';
  await pruneStatuses(ctx, served, patterns);
  if ((await feed.commit()) === 'moved')
    ctx.log.warn('feed cursor moved by an overlapping round: these changes were committed there');
  // Last: asking for a summary may wait on the Exchange computing one; nothing above waits on it.
  await ctx.fleetSummaries?.refresh(ctx, feed);
  return 'complete';
}
