import { newAgreementId } from '#lib/protocol/agreement-id';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildProposal } from '#lib/protocol/build-message';
import { protocolTimeoutS } from '#lib/protocol/timeouts';
import type { AgbotAgreement } from '../store.ts';
import type { ProposalPlan } from './candidate.ts';
import type { RoundContext } from './context.ts';
import { sendToNode } from './send.ts';

/** The agbot agreement row of §1.10: the policy's org, no pattern, the service URL without its org. */
export const agreementRow = (agreement: AgbotAgreement, state: string) => ({
  service: {
    orgid: agreement.policy.slice(0, agreement.policy.indexOf('/')),
    pattern: '',
    url: agreement.service.url,
  },
  state,
});

/**
 * Sends a proposal (reference §1.4 "On success"): the agreement is stored first, so a restart at
 * any later point knows it (it is then answered, or times out with 201) and the node is never
 * proposed to twice for the policy; then the Exchange row "Formed Proposal", then the message.
 */
export async function propose(
  ctx: RoundContext,
  policy: string,
  plan: ProposalPlan,
): Promise<AgbotAgreement> {
  const now = ctx.now();
  const agreementId = newAgreementId();
  const agreement: AgbotAgreement = {
    agreementId,
    nodeOrg: plan.node.org,
    nodeId: plan.node.id,
    policy,
    service: plan.service,
    state: AGBOT_STATES.formedProposal,
    createdAt: now,
    updatedAt: now,
    archived: false,
    details: {
      protocolTimeoutS: ctx.settings.protocolTimeoutS ?? protocolTimeoutS(plan.node.maxHeartbeatS),
      secrets: plan.secrets,
    },
  };
  ctx.store.saveAgreement(agreement);
  await ctx.exchange.putAgreement(agreementId, agreementRow(agreement, AGBOT_STATES.formedProposal));
  const message = buildProposal({
    agreementId,
    terms: plan.terms,
    producerPolicy: plan.producerPolicy,
    consumerId: `${ctx.config.org}/${ctx.config.id}`,
  });
  await sendToNode(ctx, plan.node, message);
  const sent = { ...agreement, details: { ...agreement.details, proposedAt: ctx.now() } } as AgbotAgreement;
  ctx.store.saveAgreement(sent);
  ctx.log.info('proposal sent', {
    agreement: agreementId,
    node: `${plan.node.org}/${plan.node.id}`,
    policy,
    service: `${plan.service.org}/${plan.service.url}@${plan.service.version}`,
  });
  return sent;
}
