// The constraint grammar: one implementation, shared with the agent and the agreement protocol.
import { ConstraintError, parseConstraint } from '#lib/policy/constraints';
import type { ServicePolicyRecord } from '#tables/service/children';
import type { ServicePolicyBody } from './schemas.ts';

const POLICY_TYPES = ['string', 'int', 'float', 'boolean', 'list of strings', 'version'];

/** Upstream's property-type rule, then every constraint must parse (400 naming the bad one). */
export function servicePolicyProblem(body: ServicePolicyBody): string | undefined {
  const bad = (body.properties ?? []).find((p) => p.type != null && !POLICY_TYPES.includes(p.type));
  if (bad) return `The properties.type value '${bad.type}' must be 1 of: ${POLICY_TYPES.join(', ')}`;
  for (const [index, constraint] of (body.constraints ?? []).entries()) {
    try {
      parseConstraint(constraint);
    } catch (error) {
      if (!(error instanceof ConstraintError)) throw error;
      return `invalid input: body field 'constraints.${index}': '${constraint.slice(0, 200)}' is not a valid constraint: ${error.message}`;
    }
  }
  return undefined;
}

/** The stored policy: description defaults to the label. */
export function storedServicePolicy(body: ServicePolicyBody, lastUpdated: string): ServicePolicyRecord {
  return {
    label: body.label ?? '',
    description: body.description ?? body.label ?? '',
    properties: (body.properties ?? []).map((p) => ({
      name: p.name,
      ...(p.type != null ? { type: p.type } : {}),
      value: p.value,
    })),
    constraints: body.constraints ?? [],
    lastUpdated,
  };
}
