import type { AgbotAgreement, AgreementDetails } from '#lib/agbot-store/contract';
import { newAgreementId } from '#lib/protocol/agreement-id';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildProposal } from '#lib/protocol/build-message';
import { protocolTimeoutS } from '#lib/protocol/timeouts';
import { type RoundContext, splitId } from './context.ts';
import type { PendingUpdates } from './pending-updates.ts';
import type { ProposalPlan } from './proposal-plan.ts';
import { sendToNode } from './send.ts';

/**
 * The agbot agreement row of docs/protocol.md#agreement-rows-and-states: the policy's (or pattern's) org, the pattern name without its
 * org ('' for a policy), the service URL without its org.
 */
export const agreementRow = (agreement: AgbotAgreement, state: string) => {
  const [org, pattern] = agreement.pattern ? splitId(agreement.pattern) : splitId(agreement.policy);
  return {
    service: { orgid: org, pattern: agreement.pattern ? pattern : '', url: agreement.service.url },
    state,
  };
};

/**
 * Sends a proposal (docs/protocol.md#compatibility-checks): the agreement is stored first, so a restart at
 * any later point knows it (a proposal cut short is sent again, resume-proposals.ts) and the node
 * is never proposed to twice for the policy; then the Exchange row "Formed Proposal", then the message.
 * Undefined, with nothing sent, when the store refuses the agreement because the node has a live
 * one for the policy already (an overlapping round proposed first).
 */
export async function propose(
  ctx: RoundContext,
  policy: string,
  plan: ProposalPlan,
  /** Where the proposal's mark waits to be written with others (pending-updates.ts). */
  marks: PendingUpdates,
  /** `<org>/<pattern>` when the proposal is for a pattern's service. */
  pattern?: string,
): Promise<AgbotAgreement | undefined> {
  const now = ctx.now();
  const agreementId = newAgreementId();
  const agreement: AgbotAgreement = {
    agreementId,
    nodeOrg: plan.node.org,
    nodeId: plan.node.id,
    policy,
    ...(pattern ? { pattern } : {}),
    service: plan.service,
    state: AGBOT_STATES.formedProposal,
    createdAt: now,
    updatedAt: now,
    archived: false,
    details: details(ctx, plan),
  };
  if ((await ctx.store.saveAgreement(agreement)) !== 'saved') {
    ctx.log.info('node has a live agreement for the policy already: not proposed', {
      node: `${plan.node.org}/${plan.node.id}`,
      policy,
    });
    return undefined;
  }
  return sendProposal(ctx, agreement, plan, marks);
}

/**
 * The stored agreement's proposal: the Exchange row "Formed Proposal", the message, then
 * `proposedAt` (with the plan's secrets and node health, which a resumed proposal may have anew),
 * saved with the step's other marks. An agreement without `proposedAt` is one whose proposal may
 * not have left (resume-proposals.ts sends it again).
 */
export async function sendProposal(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  plan: ProposalPlan,
  marks: PendingUpdates,
): Promise<AgbotAgreement> {
  const { agreementId, policy, pattern } = agreement;
  await ctx.exchange.putAgreement(agreementId, agreementRow(agreement, AGBOT_STATES.formedProposal));
  const message = buildProposal({
    agreementId,
    terms: plan.terms,
    producerPolicy: plan.producerPolicy,
    consumerId: `${ctx.config.org}/${ctx.config.id}`,
  });
  await sendToNode(ctx, plan.node, message);
  const sent: AgbotAgreement = {
    ...agreement,
    details: {
      ...agreement.details,
      ...details(ctx, plan, agreement.details?.protocolTimeoutS),
      proposedAt: ctx.now(),
    },
  };
  await marks.add(sent);
  ctx.log.info('proposal sent', {
    agreement: agreementId,
    node: `${plan.node.org}/${plan.node.id}`,
    policy,
    ...(pattern ? { pattern } : {}),
    service: `${plan.service.org}/${plan.service.url}@${plan.service.version}`,
  });
  return sent;
}

/** What the agreement keeps of its plan (never a secret's value: the T&C carry those). */
const details = (ctx: RoundContext, plan: ProposalPlan, timeoutS?: number): AgreementDetails => ({
  protocolTimeoutS: timeoutS ?? ctx.settings.protocolTimeoutS ?? protocolTimeoutS(plan.node.maxHeartbeatS),
  secrets: plan.secrets,
  ...(plan.terms.nodeHealth ? { nodeHealth: plan.terms.nodeHealth } : {}),
  ...(ctx.memory.feedSeenUpTo === undefined ? {} : { feedSeenUpTo: ctx.memory.feedSeenUpTo }),
});
