/**
 * Policy compatibility, used in both directions (docs/protocol.md#compatibility-checks check 11 on the agbot before it
 * proposes; docs/protocol.md#proposals-on-the-node E on the node when a proposal arrives): the consumer's constraints must be
 * satisfied by the producer's properties, and the producer's constraints by the consumer's.
 */
import { type Check, OK, satisfies } from './constraint-eval.ts';
import type { Property } from './policy-document.ts';
import { PRIVILEGED_CONSTRAINT, UPSTREAM_ALLOW_PRIVILEGED } from './privileged.ts';

export interface PolicySide {
  properties?: readonly Property[] | null;
  constraints?: readonly string[] | null;
}

export interface NodePolicyDocument extends PolicySide {
  deployment?: PolicySide | null;
}

/** Both directions; the reason names which side's constraint failed. */
export function compatible(consumer: PolicySide, producer: PolicySide): Check {
  const forward = satisfies(consumer.constraints ?? [], producer.properties ?? []);
  if (!forward.ok) return { ok: false, reason: `node: ${forward.reason}` };
  const backward = satisfies(producer.constraints ?? [], consumer.properties ?? []);
  if (!backward.ok) return { ok: false, reason: `deployment: ${backward.reason}` };
  return OK;
}

/**
 * The node policy as deployment sees it (anax NodePolicy.GetDeploymentPolicy): top-level
 * properties overlaid by the `deployment` section's (same name: the section wins); the section's
 * constraints when it has any, else the top-level ones.
 */
export function deploymentView(policy: NodePolicyDocument): {
  properties: Property[];
  constraints: string[];
} {
  const properties = [...(policy.properties ?? [])];
  for (const p of policy.deployment?.properties ?? []) {
    const at = properties.findIndex((q) => q.name === p.name);
    if (at >= 0) properties[at] = p;
    else properties.push(p);
  }
  const sectionConstraints = policy.deployment?.constraints ?? [];
  return {
    properties,
    constraints: [...(sectionConstraints.length > 0 ? sectionConstraints : (policy.constraints ?? []))],
  };
}

/** Merges policies as anax does for the consumer side: the first of a name wins, constraints are ANDed (no duplicates). */
export function mergePolicies(...sides: PolicySide[]): { properties: Property[]; constraints: string[] } {
  const properties: Property[] = [];
  const constraints: string[] = [];
  for (const side of sides) {
    for (const p of side.properties ?? []) if (!properties.some((q) => q.name === p.name)) properties.push(p);
    for (const c of side.constraints ?? []) if (!constraints.includes(c)) constraints.push(c);
  }
  return { properties, constraints };
}

export interface ServiceIdentity {
  url: string;
  org: string;
  version: string;
  arch: string;
}

/** The built-in service properties the agbot adds (anax PROP_SVC_*): url and name are both the URL. */
const serviceBuiltins = (service: ServiceIdentity, privileged: boolean): Property[] => [
  { name: 'openhorizon.service.url', value: service.url },
  { name: 'openhorizon.service.name', value: service.url },
  { name: 'openhorizon.service.org', value: service.org },
  { name: 'openhorizon.service.version', value: service.version },
  { name: 'openhorizon.service.arch', value: service.arch },
  { name: UPSTREAM_ALLOW_PRIVILEGED, value: privileged },
];

/**
 * The consumer side of an agreement: deployment policy ⊕ service policy ⊕ built-ins, plus the
 * privileged constraint when the service (or a dependency) needs privilege. A property set by the
 * deployment or service policy is kept; `openhorizon.allowPrivileged` is always the measured value,
 * except that a policy's `true` is not lowered (anax SetServicePolicyPrivilege).
 */
export function consumerPolicy(
  deploymentPolicy: PolicySide,
  servicePolicy: PolicySide | undefined,
  service: ServiceIdentity,
  privileged: boolean,
): { properties: Property[]; constraints: string[] } {
  const merged = mergePolicies(deploymentPolicy, servicePolicy ?? {}, {
    properties: serviceBuiltins(service, privileged),
  });
  const declared = merged.properties.find((p) => p.name === UPSTREAM_ALLOW_PRIVILEGED);
  const effective = privileged || declared?.value === true;
  const properties = merged.properties.map((p) =>
    p.name === UPSTREAM_ALLOW_PRIVILEGED ? { ...p, value: effective } : p,
  );
  const constraints = privileged
    ? mergePolicies(merged, { constraints: [PRIVILEGED_CONSTRAINT] }).constraints
    : merged.constraints;
  return { properties, constraints };
}

/** Properties whose values the node measures and that may drift between proposal and check (anax PROP_NODE_MEMORY/CPU). */
const VOLATILE_PROPERTIES = ['openhorizon.memory', 'openhorizon.cpu', 'platform.memory', 'platform.cpu'];

/**
 * The node's check of a proposal's producer policy against its own current policy (docs/protocol.md#proposals-on-the-node E):
 * every property both name must have the same value, except the volatile ones.
 */
export function propertiesAgree(
  proposed: readonly Property[],
  current: readonly Property[],
  ignore: readonly string[] = VOLATILE_PROPERTIES,
): Check {
  for (const p of proposed) {
    if (ignore.includes(p.name)) continue;
    const mine = current.find((q) => q.name === p.name);
    if (mine && JSON.stringify(mine.value) !== JSON.stringify(p.value))
      return { ok: false, reason: `property ${p.name} has changed` };
  }
  return OK;
}
