import type { ExchangePolicy, NodePolicy, PolicyProperty } from '../exchange/types.ts';
import type { HostFacts } from '../runtime/host.ts';
import { allowPrivilegedOf, withBuiltins } from './builtins.ts';

/** The shape GET /node/policy answers when the node has no policy (upstream's empty policy). */
export const EMPTY_POLICY_VIEW = {
  properties: null,
  constraints: null,
  deployment: { properties: null, constraints: null },
  management: { properties: null, constraints: null },
};

const section = (
  s: { properties?: PolicyProperty[] | null; constraints?: string[] | null } | null | undefined,
) => ({
  properties: (s?.properties ?? []).map(property),
  constraints: [...(s?.constraints ?? [])],
});

/** `type` absent, null or "" all mean "no type": one spelling, so copies compare equal. */
function property(p: PolicyProperty): PolicyProperty {
  return !p.type ? { name: p.name, value: p.value } : { name: p.name, value: p.value, type: p.type };
}

/** A policy in the one shape kept locally and sent to the Exchange (nulls become empty lists). */
export function normalizePolicy(p: ExchangePolicy): NodePolicy {
  const top = section(p);
  const policy: NodePolicy = {
    properties: top.properties,
    constraints: top.constraints,
    deployment: section(p.deployment),
    management: section(p.management),
  };
  if (p.label) policy.label = p.label;
  if (p.description) policy.description = p.description;
  return policy;
}

/** The policy with the built-ins enforced (allowPrivileged taken from the policy itself). */
export function enforceBuiltins(policy: NodePolicy, host: HostFacts, previous?: NodePolicy): NodePolicy {
  const fallback = allowPrivilegedOf(previous?.properties);
  return { ...policy, properties: withBuiltins(policy.properties, host, fallback) };
}

/** A fresh node's policy: the built-ins only. */
export function defaultPolicy(host: HostFacts): NodePolicy {
  return normalizePolicy({ properties: withBuiltins([], host) });
}

/** Same content for sync purposes (label, properties, constraints, deployment, management). */
export function samePolicy(a: NodePolicy | undefined, b: NodePolicy | undefined): boolean {
  const key = (p: NodePolicy | undefined) =>
    p && JSON.stringify([p.label ?? '', p.properties, p.constraints, p.deployment, p.management]);
  return key(a) === key(b);
}
