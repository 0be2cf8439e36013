import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { newAgreementId } from '#lib/protocol/agreement-id';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildProposal } from '#lib/protocol/build-message';
import { protocolTimeoutS } from '#lib/protocol/timeouts';
import { type RoundContext, splitId } from './context.ts';
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
 * any later point knows it (it is then answered, or times out with 201) and the node is never
 * proposed to twice for the policy; then the Exchange row "Formed Proposal", then the message.
 * Undefined, with nothing sent, when the store refuses the agreement because the node has a live
 * one for the policy already (an overlapping round proposed first).
 */
export async function propose(
  ctx: RoundContext,
  policy: string,
  plan: ProposalPlan,
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
    details: {
      protocolTimeoutS: ctx.settings.protocolTimeoutS ?? protocolTimeoutS(plan.node.maxHeartbeatS),
      secrets: plan.secrets,
      ...(plan.terms.nodeHealth ? { nodeHealth: plan.terms.nodeHealth } : {}),
    },
  };
  if ((await ctx.store.saveAgreement(agreement)) !== 'saved') {
    ctx.log.info('node has a live agreement for the policy already: not proposed', {
      node: `${plan.node.org}/${plan.node.id}`,
      policy,
    });
    return undefined;
  }
  await ctx.exchange.putAgreement(agreementId, agreementRow(agreement, AGBOT_STATES.formedProposal));
  const message = buildProposal({
    agreementId,
    terms: plan.terms,
    producerPolicy: plan.producerPolicy,
    consumerId: `${ctx.config.org}/${ctx.config.id}`,
  });
  await sendToNode(ctx, plan.node, message);
  const sent = { ...agreement, details: { ...agreement.details, proposedAt: ctx.now() } } as AgbotAgreement;
  await ctx.store.saveAgreement(sent);
  ctx.log.info('proposal sent', {
    agreement: agreementId,
    node: `${plan.node.org}/${plan.node.id}`,
    policy,
    ...(pattern ? { pattern } : {}),
    service: `${plan.service.org}/${plan.service.url}@${plan.service.version}`,
  });
  return sent;
}
