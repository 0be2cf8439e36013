/**
 * Governance of live agreements after changes the feed reported
 * (docs/protocol.md#policy-and-configuration-changes, #cancel-by-the-agbot): a deployment policy
 * deleted, no longer served, or changed so that the node no longer matches → cancel 204; a node
 * policy change that breaks the match → 204; a node deleted from the Exchange → 209 (its
 * agreement rows went with it); a pattern agreement is judged by pattern-govern.ts. A policy
 * change that keeps the match keeps the agreement (upstream would send a policy-change update;
 * this agbot does not, see docs/agbot.md), unless it now ranks a version above the node's and the
 * node's history allows it (version fallback): then the agreement ends with 204 and the node is
 * searched again for the better version.
 */
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { versionsByPriority } from '#lib/protocol/catalog-records';
import { REASON } from '#lib/protocol/reason-codes';
import { cancelAgreement } from './cancel.ts';
import { stillCompatible, versionsToOffer } from './candidate.ts';
import { type RoundContext, splitId } from './context.ts';
import type { FeedSummary } from './feed.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { type PatternReads, patternAgreementHolds } from './pattern-govern.ts';
import { type DeploymentPolicy, deploymentPolicy, oneOf } from './wire.ts';

/**
 * Whether the feed holds a change of `key` (the node's record or policy, or the deployment
 * policy) that the agreement's proposal had not seen: every proposal reads the node, its policy
 * and the deployment policy after its round's feed read, so a change numbered at or below its
 * mark (`feedSeenUpTo`) was in what it read. A fleet registered just before its policy leaves
 * thousands of node changes, and the policy's own creation, in the feed behind the proposals:
 * looked at again for every agreement, they cost the round four Exchange reads each
 * (docs/benchmarks.md, 10,000 nodes).
 */
function changedSince(
  changed: Set<string>,
  changeIds: Map<string, number>,
  key: string,
  agreement: AgbotAgreement,
): boolean {
  if (!changed.has(key)) return false;
  const seen = agreement.details?.feedSeenUpTo;
  return seen === undefined || (changeIds.get(key) ?? Number.POSITIVE_INFINITY) > seen;
}

export async function governChanges(
  ctx: RoundContext,
  live: LiveAgreements,
  feed: FeedSummary,
  served: Map<string, string[]>,
  servedPatterns: Map<string, string[]> = new Map(),
): Promise<number> {
  let cancelled = 0;
  const patternReads: PatternReads = new Map();
  const cancel = async (agreement: AgbotAgreement, reason: number, options?: { tellNode?: boolean }) => {
    await cancelAgreement(ctx, agreement, reason, options);
    live.ended(agreement.agreementId);
    cancelled += 1;
  };
  for (const agreement of live.list()) {
    const node = `${agreement.nodeOrg}/${agreement.nodeId}`;
    if (feed.nodesDeleted.has(node)) {
      await cancel(agreement, REASON.agbotAgreementMissingOnNode, { tellNode: false });
      continue;
    }
    if (agreement.pattern) {
      const check = await patternAgreementHolds(
        ctx,
        { ...agreement, pattern: agreement.pattern },
        feed,
        servedPatterns,
        patternReads,
      );
      if (!check || check.ok) continue;
      ctx.log.info('pattern agreement no longer valid', {
        agreement: agreement.agreementId,
        reason: check.reason,
      });
      await cancel(agreement, REASON.agbotPolicyChanged);
      continue;
    }
    const policyChanged = changedSince(feed.policies, feed.policyChangeIds, agreement.policy, agreement);
    const unserved = !served.has(agreement.policy);
    if (!policyChanged && !unserved && !changedSince(feed.nodes, feed.nodeChangeIds, node, agreement))
      continue;
    const [org, name] = splitId(agreement.policy);
    const policy = unserved
      ? undefined
      : oneOf(
          await ctx.exchange.deploymentPolicy(org, name),
          'businessPolicy',
          agreement.policy,
          deploymentPolicy,
        );
    const check = policy
      ? await stillCompatible(ctx, policy, agreement)
      : { ok: false as const, reason: 'the deployment policy is gone or no longer served' };
    const better = check.ok && policy ? await betterVersion(ctx, policy, agreement) : undefined;
    if (better) {
      // Upstream ends the agreement on a policy change too; the next search offers the better version.
      ctx.log.info('agreement upgraded: a higher-priority version is offered', {
        agreement: agreement.agreementId,
        from: agreement.service.version,
        to: better,
      });
      // Looked at again before the archive frees the node: a crash between the two loses nothing.
      await ctx.store.revisit(agreement.policy, node);
      await cancel(agreement, REASON.agbotPolicyChanged);
      continue;
    }
    if (check.ok) continue;
    ctx.log.info('agreement no longer compatible', {
      agreement: agreement.agreementId,
      reason: check.reason,
    });
    await cancel(agreement, REASON.agbotPolicyChanged);
  }
  return cancelled;
}

/**
 * A version the node should run instead of the agreement's: one the policy now ranks higher and
 * the node's history does not rule out (version fallback); undefined when the agreement's is best.
 */
async function betterVersion(
  ctx: RoundContext,
  policy: DeploymentPolicy,
  agreement: AgbotAgreement,
): Promise<string | undefined> {
  const ranked = versionsByPriority(policy.service);
  const current = ranked.indexOf(agreement.service.version);
  const offered = await versionsToOffer(
    ctx,
    agreement.policy,
    policy.service,
    agreement.nodeOrg,
    agreement.nodeId,
  );
  const best = offered[0];
  return best !== undefined && ranked.indexOf(best) < current ? best : undefined;
}
