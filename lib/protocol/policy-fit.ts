/**
 * The policy rules for one service version on one node (docs/protocol.md#compatibility-checks checks 9–11), as the agbot
 * applies them before it proposes and `hzn deploycheck policy` explains them: host access the
 * node must allow, then the consumer side (deployment policy ⊕ service policy ⊕ built-ins) and the
 * node policy's deployment view, both ways.
 */
import type { Check } from './constraint-eval.ts';
import type { Deployment } from './deployment.ts';
import {
  compatible,
  consumerPolicy,
  deploymentView,
  type NodePolicyDocument,
  type PolicySide,
  type ServiceIdentity,
} from './policy-compatibility.ts';
import type { Property } from './policy-document.ts';
import { hostAccessOf, nodeAllowsPrivilege, privilegeRefusal } from './privileged.ts';

export interface PolicyFitInput {
  nodePolicy: NodePolicyDocument;
  deploymentPolicy: PolicySide;
  servicePolicy: PolicySide | undefined;
  service: ServiceIdentity;
  deployment: Deployment;
}

type Sides = { properties: Property[]; constraints: string[] };

export type PolicyFit = { ok: true; consumer: Sides; producer: Sides } | { ok: false; reason: string };

export function policyFit(input: PolicyFitInput): PolicyFit {
  const hostAccess = hostAccessOf(input.deployment)[0];
  const producer = deploymentView(input.nodePolicy);
  // The privileged constraint would refuse this node too; checked first for a reason that names the field.
  if (hostAccess && !nodeAllowsPrivilege(producer.properties))
    return { ok: false, reason: privilegeRefusal(hostAccess) };
  const consumer = consumerPolicy(
    input.deploymentPolicy,
    input.servicePolicy,
    input.service,
    hostAccess !== undefined,
  );
  const matched: Check = compatible(consumer, producer);
  return matched.ok ? { ok: true, consumer, producer } : { ok: false, reason: matched.reason };
}
