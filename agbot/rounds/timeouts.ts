import { REASON } from '#lib/protocol/reason-codes';
import { cancelAgreement } from './cancel.ts';
import type { RoundContext } from './context.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { timedOut } from './mailbox.ts';

/**
 * docs/protocol.md#timeouts: a proposal without a reply within the protocol timeout is cancelled with 201. Computed
 * from stored timestamps, so it holds across restarts (and a proposal whose send was cut short
 * by a crash ends the same way).
 */
export async function cancelTimedOut(ctx: RoundContext, live: LiveAgreements): Promise<number> {
  let cancelled = 0;
  for (const agreement of live.list()) {
    if (!timedOut(ctx, agreement)) continue;
    await cancelAgreement(ctx, agreement, REASON.agbotNoReply);
    live.ended(agreement.agreementId);
    cancelled += 1;
  }
  return cancelled;
}
