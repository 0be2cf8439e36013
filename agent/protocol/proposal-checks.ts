/**
 * The node's judgement of a proposal (docs/protocol.md#proposals-on-the-node), as pure functions of what the node holds:
 * the pattern pre-check of step D (the T&C's `patternId` must be the node's pattern, both "" for
 * a policy node; a mismatch gets no reply) and the decision of step E. A policy proposal needs
 * the node policy and must agree with it both ways; a pattern proposal is judged by the pattern
 * (already matched in D), not by policy, so a pattern node may have no policy. Privilege, user
 * input and secret values are checked either way; without a node policy privilege is refused.
 */
import type { Check } from '#lib/protocol/constraint-eval';
import type { Deployment } from '#lib/protocol/deployment';
import type { NodePolicyDocument } from '#lib/protocol/policy-compatibility';
import type { PolicyDocument, UserInput } from '#lib/protocol/policy-document';
import {
  type HostAccessOptions,
  hostAccessOf,
  nodeAllowsPrivilege,
  privilegeRefusal,
} from '#lib/protocol/privileged';
import { nodeAcceptsTerms } from '#lib/protocol/proposal-decision';
import type { ServiceRef } from '#lib/protocol/service-match';
import { checkUserInput } from '#lib/protocol/user-input-check';
import type { DeclaredInput } from './exchange-calls.ts';

/** Step D's pattern rule. */
export function patternMatches(terms: PolicyDocument, nodePattern: string): Check {
  return (terms.patternId ?? '') === nodePattern
    ? { ok: true }
    : { ok: false, reason: `pattern ${terms.patternId || '""'} is not the node's pattern` };
}

export interface DecisionInput {
  terms: PolicyDocument;
  producerPolicy: PolicyDocument;
  /** The node's current policy; undefined when it has none. */
  nodePolicy: NodePolicyDocument | undefined;
  nodeUserInput: readonly UserInput[];
  service: ServiceRef;
  deployment: Deployment;
  declared: readonly DeclaredInput[];
  /** Whether every bound secret has a value (checked by the caller, which keeps the values). */
  secrets: Check;
  /** The node's own host paths (data directory, engine socket) and its link resolver. */
  hostAccess?: HostAccessOptions;
}

/** Step E: answered with `decision:false` when it fails. */
export function decideOnProposal(input: DecisionInput): Check {
  const { terms, nodePolicy } = input;
  if (!terms.patternId) {
    if (!nodePolicy) return { ok: false, reason: 'the node has no policy' };
    const compatible = nodeAcceptsTerms(terms, input.producerPolicy, nodePolicy);
    if (!compatible.ok) return compatible;
  }
  const hostAccess = hostAccessOf(input.deployment, input.hostAccess)[0];
  if (hostAccess && !nodeAllowsPrivilege(nodePolicy?.properties ?? []))
    return { ok: false, reason: privilegeRefusal(hostAccess) };
  const userInput = checkUserInput(input.service, input.declared, terms.userInput, input.nodeUserInput);
  if (!userInput.ok) return userInput;
  return input.secrets;
}
