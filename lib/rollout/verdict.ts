/**
 * What an ended agreement of the target version says about the release
 * (docs/rollouts.md#per-node-states): the node's workload failed (a failure of the release), the
 * node or the protocol went quiet (offline: not a verdict), or something unrelated to the version
 * happened (neutral: the node left the rollout). Codes: docs/protocol.md#reason-codes.
 */
import { describeReason, REASON, WORKLOAD_FAILURES } from '#lib/protocol/reason-codes';

export type ReasonClass = 'failure' | 'offline' | 'neutral';

/** The workload failures version fallback counts too, and what else says the version is refused. */
const FAILURES: ReadonlySet<number> = new Set([
  ...WORKLOAD_FAILURES,
  REASON.dependentDowngrade,
  REASON.agbotNegativeReply,
  REASON.agbotUpdateRejected,
]);

const OFFLINE: ReadonlySet<number> = new Set([
  REASON.noReplyAck,
  REASON.verificationFailed,
  REASON.agbotNoReply,
  REASON.agbotNodeHeartbeatStopped,
  REASON.agbotAgreementMissingOnNode,
]);

/** The class of a reason code; an unknown code (or none) is neutral. */
export function classifyReason(code: number | undefined): ReasonClass {
  if (code === undefined) return 'neutral';
  if (FAILURES.has(code)) return 'failure';
  if (OFFLINE.has(code)) return 'offline';
  return 'neutral';
}

/** How a failure is named in the status's `failures` (`103 service terminated`, `deadline`). */
export const failureLabel = (code: number): string => `${code} ${describeReason(code)}`;

/** Failures that are not a reason code. */
export const FAILURE = {
  deadline: 'deadline: not verified in time',
  restarts: 'restarted too often',
  fellBack: 'fell back to a lower version',
} as const;
