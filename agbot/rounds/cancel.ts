import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { buildCancel } from '#lib/protocol/build-message';
import { describeReason } from '#lib/protocol/reason-codes';
import type { RoundContext } from './context.ts';
import { sendAbout } from './send.ts';

/**
 * An agbot-side cancel (docs/protocol.md#cancel-by-the-agbot): the node is told with the reason (unless it is gone or
 * told us itself), the agbot agreement leaves the Exchange, and the local row is archived with
 * the reason code and upstream's description. Archiving comes last so that a failure before it
 * leaves the agreement active and the next round tries again.
 */
export async function cancelAgreement(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  reason: number,
  options: { tellNode?: boolean } = {},
): Promise<void> {
  if (options.tellNode !== false) {
    const told = await sendAbout(ctx, agreement, buildCancel(agreement.agreementId, reason)).catch(
      (error) => {
        // The cancel is still ours to finish: the node times out on its side (107) if it never hears.
        ctx.log.warn('cancel not delivered to the node', {
          agreement: agreement.agreementId,
          error: (error as Error).message,
        });
        return false;
      },
    );
    if (!told) ctx.log.debug('node not told of the cancel', { agreement: agreement.agreementId });
  }
  await ctx.exchange.deleteAgreement(agreement.agreementId);
  await ctx.store.saveAgreement({
    ...agreement,
    archived: true,
    terminatedReason: reason,
    terminatedDescription: describeReason(reason),
    updatedAt: ctx.now(),
  });
  ctx.log.info('agreement cancelled', {
    agreement: agreement.agreementId,
    node: `${agreement.nodeOrg}/${agreement.nodeId}`,
    policy: agreement.policy,
    reason,
  });
}
