/**
 * Secret updates (docs/protocol.md#secrets-in-agreements): when the feed shows a secret written, every live agreement
 * whose service binds it gets `basicagreementupdatesecret` with the new values of the changed
 * secrets only, in the same round. Values are read from the secrets API for the message and
 * never kept. Pattern agreements take the bindings of their pattern; values are read in the node's
 * org (secret-values.ts). No cancel for a rejected or unanswered update (upstream logs it only).
 */

import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildSecretUpdate } from '#lib/protocol/build-message';
import type { SecretBinding } from '#lib/protocol/secret-binding';
import { secretSource } from '../exchange.ts';
import type { RoundContext } from './context.ts';
import { splitId } from './context.ts';
import type { FeedSummary } from './feed.ts';
import type { LiveAgreements } from './live-agreements.ts';
import { readPattern } from './pattern-services.ts';
import { secretsWithValues } from './secret-values.ts';
import { sendAbout } from './send.ts';
import { deploymentPolicy, oneOf } from './wire.ts';

export async function sendSecretUpdates(
  ctx: RoundContext,
  live: LiveAgreements,
  feed: FeedSummary,
): Promise<number> {
  if (feed.secrets.size === 0) return 0;
  let sent = 0;
  for (const agreement of live.list()) {
    if (agreement.state === AGBOT_STATES.formedProposal) continue; // the proposal carries values already read
    const [org, name] = splitId(agreement.policy);
    // Bound secrets are read in the node's org (secret-values.ts).
    const changed = (agreement.details?.secrets ?? []).filter((s) =>
      s.candidates.some((candidate) => feed.secrets.has(`${agreement.nodeOrg}/${candidate}`)),
    );
    if (changed.length === 0) continue;
    const bindings = await secretBindingsOf(ctx, agreement, org, name);
    if (!bindings) continue; // governance cancels it
    const source = agreement.pattern
      ? secretSource('pattern', ...splitId(agreement.pattern), agreement.nodeOrg)
      : secretSource('policy', org, name, agreement.nodeOrg);
    const metadata = await secretsWithValues(ctx, source, bindings, changed);
    if (!metadata) {
      ctx.log.warn('a changed secret cannot be read: no update sent', { agreement: agreement.agreementId });
      continue;
    }
    if (!(await sendAbout(ctx, agreement, buildSecretUpdate(agreement.agreementId, metadata)))) continue;
    const updated = {
      ...agreement,
      updatedAt: ctx.now(),
      details: { protocolTimeoutS: 0, secrets: [], ...agreement.details, secretsUpdatedAt: ctx.now() },
    };
    if ((await ctx.store.saveAgreement(updated)) === 'saved') live.updated(updated);
    ctx.log.info('secret update sent', {
      agreement: agreement.agreementId,
      secrets: changed.map((s) => s.serviceSecret),
    });
    sent += 1;
  }
  return sent;
}

/** The bindings the agreement was made with: its deployment policy's, or its pattern's. */
async function secretBindingsOf(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  org: string,
  name: string,
): Promise<SecretBinding[] | undefined> {
  if (agreement.pattern) return (await readPattern(ctx, agreement.pattern))?.secretBinding;
  const policy = oneOf(
    await ctx.exchange.deploymentPolicy(org, name),
    'businessPolicy',
    agreement.policy,
    deploymentPolicy,
  );
  return policy?.secretBinding;
}
