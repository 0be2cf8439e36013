/**
 * Acceptance and finalisation on the node (docs/protocol.md#proposals-on-the-node, "RecordReply"):
 * the timestamps are set, the node agreement is written in the Exchange ("Finalized Agreement",
 * with `agreementService.url = <svcOrg>/<svcUrl>`: that row keeps the agbots from proposing the
 * same service again) and the workload starts. Reached by a replyack, or by the governance pass
 * when no replyack came (upstream does not wait for it). Acceptance and finalisation happen in the
 * same step here, so no "Agree to proposal" row is written first: it would be overwritten a moment
 * later (docs/compatibility.md).
 */
import { NODE_STATES } from '#lib/protocol/agreement-states';
import type { Credentials } from '../exchange/client.ts';
import type { NodeRecord } from '../node/record.ts';
import { type NodeAgreementRow, putNodeAgreement } from './exchange-calls.ts';
import type { Protocol } from './protocol.ts';
import { agreementSource, nowSeconds, type ProtocolAgreement, termsOf, updateAgreement } from './records.ts';
import { startWorkload } from './workload.ts';

export async function acceptAndFinalize(
  p: Protocol,
  node: NodeRecord,
  creds: Credentials,
  agreement: ProtocolAgreement,
): Promise<void> {
  const { ctx } = p;
  const id = agreement.current_agreement_id;
  if (agreement.agreement_accepted_time === 0) {
    const accepted = updateAgreement(ctx.store, id, (a) =>
      a.agreement_terminated_time > 0 ? undefined : { agreement_accepted_time: nowSeconds(ctx.now) },
    );
    if (!accepted || accepted.agreement_terminated_time > 0) return;
    ctx.events.add(
      'info',
      'agreement_reached',
      `Agreement reached for service ${agreement.workload_to_run.url}. The agreement id is ${id}.`,
      'agreement',
      agreementSource(accepted),
    );
  }
  if (agreement.agreement_finalized_time === 0) {
    await putNodeAgreement(ctx, creds, id, nodeAgreementRow(node, agreement, NODE_STATES.finalized));
    updateAgreement(ctx.store, id, (a) =>
      a.agreement_terminated_time > 0 ? undefined : { agreement_finalized_time: nowSeconds(ctx.now) },
    );
  }
  void startWorkload(p, id);
}

function nodeAgreementRow(node: NodeRecord, agreement: ProtocolAgreement, state: string): NodeAgreementRow {
  const apiSpec = termsOf(agreement)?.apiSpec ?? [];
  const service = agreement.workload_to_run;
  return {
    ...(apiSpec.length > 0
      ? { services: apiSpec.map((s) => ({ orgid: s.organization, url: s.specRef })) }
      : {}),
    agreementService: {
      orgid: node.organization,
      pattern: node.pattern,
      url: `${service.org}/${service.url}`,
    },
    state,
  };
}
