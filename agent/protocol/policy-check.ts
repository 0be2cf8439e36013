/**
 * Node policy changes (docs/protocol.md#policy-and-configuration-changes): every round, each active agreement of a node without a
 * pattern is checked against the node's current policy: the stored T&C and the node policy must
 * satisfy each other's constraints, and a privileged service against
 * `platform.allowPrivileged`. No longer compatible, or no node policy any more → cancel 101
 * "node policy changed" (containers removed, node agreement deleted, `cancel_agreement` event).
 */

import type { Check } from '#lib/protocol/constraint-eval';
import { parseDeployment } from '#lib/protocol/deployment';
import type { Proposal } from '#lib/protocol/messages';
import { type ProposalContents, readProposal } from '#lib/protocol/parse-message';
import { compatible, deploymentView, type NodePolicyDocument } from '#lib/protocol/policy-compatibility';
import { describeHostAccess, hostAccessOf, nodeAllowsPrivilege } from '#lib/protocol/privileged';
import { REASON } from '#lib/protocol/reason-codes';
import type { NodePolicy } from '../exchange/types.ts';
import { loadPolicy } from '../node/local.ts';
import type { NodeRecord } from '../node/record.ts';
import type { Protocol } from './protocol.ts';
import { activeAgreements, type ProtocolAgreement } from './records.ts';
import { startTermination } from './terminate.ts';

export function cancelIncompatible(p: Protocol, node: NodeRecord): void {
  if (node.pattern) return;
  const policy = loadPolicy(p.ctx.store);
  for (const agreement of activeAgreements(p.ctx.store)) {
    const check = stillCompatible(agreement, policy);
    if (check.ok) continue;
    p.ctx.log.info('node policy no longer matches an agreement', {
      agreement: agreement.current_agreement_id,
      reason: check.reason,
    });
    startTermination(p, agreement.current_agreement_id, REASON.nodePolicyChanged);
  }
}

function stillCompatible(agreement: ProtocolAgreement, policy: NodePolicy | undefined): Check {
  if (!policy) return { ok: false, reason: 'the node policy was deleted' };
  let contents: ProposalContents;
  try {
    contents = readProposal(JSON.parse(agreement.proposal) as Proposal);
  } catch {
    // A record without a readable proposal (older data) is not judged here.
    return { ok: true };
  }
  // Upstream's governance check: the T&C against the node's current policy, both ways (the
  // producer policy of the proposal is not compared again, so an unrelated property may change).
  const { terms } = contents;
  const both = compatible(terms, deploymentView(policy as NodePolicyDocument));
  if (!both.ok) return both;
  const deployment = terms.workloads?.[0]?.deployment;
  if (deployment && !nodeAllowsPrivilege(policy.properties)) {
    try {
      const access = hostAccessOf(parseDeployment(deployment))[0];
      if (access)
        return {
          ok: false,
          reason: `the node policy no longer allows privileged mode (${describeHostAccess(access)})`,
        };
    } catch {
      // Checked when the proposal came; nothing to judge here.
    }
  }
  return { ok: true };
}
