/**
 * An agbot agreement in upstream's agbot API field names (anax's `GET /agreement`, read by
 * `hzn agbot agreement list`), from the agreement as the store keeps it. Shared by the standalone
 * agbot's status API and the Exchange's read-only agbotstatus route.
 */
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { REASON } from '#lib/protocol/reason-codes';
import type { AgbotAgreement } from './contract.ts';

const seconds = (ms: number | undefined) => (ms ? Math.floor(ms / 1000) : 0);
const splitPolicy = (policy: string) => {
  const at = policy.indexOf('/');
  return { org: policy.slice(0, at), name: policy.slice(at + 1) };
};

/** Upstream's fields (times in epoch seconds, 0 when not reached), plus the service and the state. */
export function upstreamAgreement(a: AgbotAgreement): Record<string, unknown> {
  const finalized = a.state === AGBOT_STATES.finalized || (a.archived && a.details?.repliedAt !== undefined);
  return {
    current_agreement_id: a.agreementId,
    org: splitPolicy(a.policy).org,
    device_id: `${a.nodeOrg}/${a.nodeId}`,
    agreement_protocol: 'Basic',
    agreement_inception_time: seconds(a.createdAt),
    agreement_creation_time: seconds(a.details?.proposedAt),
    agreement_finalized_time: finalized ? seconds(a.details?.repliedAt) : 0,
    agreement_timeout: a.archived && a.terminatedReason === REASON.agbotNoReply ? seconds(a.updatedAt) : 0,
    data_verification_time: 0,
    data_notification_sent: 0,
    policy_name: a.policy,
    pattern: a.pattern ?? '',
    archived: a.archived,
    terminated_reason: a.terminatedReason ?? 0,
    terminated_description: a.terminatedDescription ?? '',
    state: a.state,
    service: a.service,
  };
}
