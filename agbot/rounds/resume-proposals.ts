/**
 * Proposals cut short (issue 26: no proposal lost across a crash). An agreement is stored before
 * its proposal is sent (the restart rule) and marked `proposedAt` once the message is in the
 * node's mailbox. One still unmarked that an earlier round made was cut short between the two (a
 * crash, a timeout, a failed send): the node may or may not have the proposal, and no later
 * search proposes again while the agreement holds the node. Rounds never overlap (the lease in
 * the stack, one process standalone), so this round sends it again, with the same agreement id:
 * a node that has it already drops it (the agent, as upstream's, ignores a proposal for an
 * agreement it knows), one that has not answers it. The plan is made afresh (the T&C carry the
 * secrets' values, which are never stored). When the node no longer qualifies, or would now get
 * another version, the agreement is cancelled instead and the node looked at again by the search.
 * A reply to the first send is read before this step (the mailbox comes first), so an answered
 * proposal is never sent twice.
 */
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { REASON } from '#lib/protocol/reason-codes';
import type { ServiceRef } from '#lib/protocol/service-match';
import { cancelAgreement } from './cancel.ts';
import { evaluate } from './candidate.ts';
import { nodeFullId, type RoundContext, splitId } from './context.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { timedOut } from './mailbox.ts';
import { evaluatePattern } from './pattern-candidate.ts';
import { patternTargets, readPattern } from './pattern-services.ts';
import { PendingUpdates } from './pending-updates.ts';
import type { Evaluation, RoundCache } from './proposal-plan.ts';
import { sendProposal } from './propose.ts';
import { deploymentPolicy, oneOf } from './wire.ts';

/** Whether the agreement's proposal may not have left: unmarked, unanswered, not timed out. */
export const cutShort = (ctx: RoundContext, agreement: AgbotAgreement, roundStartedAt: number): boolean =>
  !agreement.archived &&
  agreement.state === AGBOT_STATES.formedProposal &&
  agreement.details?.proposedAt === undefined &&
  agreement.createdAt < roundStartedAt &&
  !timedOut(ctx, agreement);

/** Sends again the proposals of `live` that were cut short; answers how many. */
export async function resumeProposals(
  ctx: RoundContext,
  live: LiveAgreements,
  roundStartedAt: number,
): Promise<number> {
  const cutShortOnes = live.list().filter((a) => cutShort(ctx, a, roundStartedAt));
  if (cutShortOnes.length === 0) return 0;
  const marks = new PendingUpdates(ctx.store, (sent) => live.updated(sent));
  return marks.around(() => resumeEach(ctx, live, cutShortOnes, marks));
}

async function resumeEach(
  ctx: RoundContext,
  live: LiveAgreements,
  agreements: AgbotAgreement[],
  marks: PendingUpdates,
): Promise<number> {
  const cache: RoundCache = new Map();
  let resumed = 0;
  for (const agreement of agreements) {
    const evaluation = await evaluateAgain(ctx, cache, agreement);
    if (evaluation.ok && sameService(evaluation.plan.service, agreement.service)) {
      await sendProposal(ctx, agreement, evaluation.plan, marks);
      ctx.log.info('proposal cut short sent again', { agreement: agreement.agreementId });
      resumed += 1;
      continue;
    }
    ctx.log.info('proposal cut short no longer holds: cancelled', {
      agreement: agreement.agreementId,
      reason: evaluation.ok ? 'another version is offered now' : evaluation.reason,
    });
    // Looked at before the archive, which frees the node: a crash between the two loses nothing.
    if (!agreement.pattern) await ctx.store.revisit(agreement.policy, nodeFullId(agreement));
    await cancelAgreement(ctx, agreement, REASON.agbotPolicyChanged);
    live.ended(agreement.agreementId);
  }
  return resumed;
}

/** The checks of the search, for the agreement's policy or pattern service. */
async function evaluateAgain(
  ctx: RoundContext,
  cache: RoundCache,
  agreement: AgbotAgreement,
): Promise<Evaluation> {
  const { nodeOrg, nodeId } = agreement;
  if (agreement.pattern) {
    const pattern = await readPattern(ctx, agreement.pattern);
    const target = pattern
      ? patternTargets(agreement.pattern, pattern).find((t) => t.policyId === agreement.policy)
      : undefined;
    if (!target) return { ok: false, reason: 'the pattern or its service is gone' };
    return evaluatePattern(ctx, cache, target, nodeOrg, nodeId);
  }
  const [org, name] = splitId(agreement.policy);
  const policy = oneOf(
    await ctx.exchange.deploymentPolicy(org, name),
    'businessPolicy',
    agreement.policy,
    deploymentPolicy,
  );
  if (!policy) return { ok: false, reason: 'the deployment policy is gone' };
  return evaluate(ctx, cache, { org, name }, policy, nodeOrg, nodeId);
}

const sameService = (a: ServiceRef, b: ServiceRef): boolean =>
  a.org === b.org && a.url === b.url && a.version === b.version && a.arch === b.arch;
