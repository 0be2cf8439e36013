/**
 * The node's decision on a proposal that passed the pre-checks (docs/protocol.md#proposals-on-the-node step E): the
 * producer policy the agbot matched must still agree with the node's current policy (same-named
 * properties equal, measured memory/cpu excepted), and the T&C and the node's current deployment
 * view must satisfy each other's constraints. A failure here is answered with `decision:false`.
 */
import type { Check } from './constraint-eval.ts';
import {
  compatible,
  deploymentView,
  type NodePolicyDocument,
  propertiesAgree,
} from './policy-compatibility.ts';
import type { PolicyDocument } from './policy-document.ts';

export function nodeAcceptsTerms(
  terms: PolicyDocument,
  producerPolicy: PolicyDocument,
  currentNodePolicy: NodePolicyDocument,
): Check {
  const current = deploymentView(currentNodePolicy);
  const agree = propertiesAgree(producerPolicy.properties ?? [], current.properties);
  if (!agree.ok) return agree;
  return compatible(terms, current);
}
