import { satisfies } from '#lib/protocol/constraint-eval';
import type { Property } from '#lib/protocol/policy-document';

/**
 * Whether a node management policy applies to a node (docs/nmp.md#which-nodes-a-policy-reaches):
 * upstream's VerifyCompatible (open-horizon/anax `nodemanagement/node_management_worker.go`), one
 * implementation for the agent and `hzn`.
 */

/** The parts of a node policy document that management reads. */
export interface NodePolicyDoc {
  properties?: Property[] | null;
  constraints?: string[] | null;
  management?: { properties?: Property[] | null; constraints?: string[] | null } | null;
}

/** The parts of an NMP that decide where it applies. */
export interface NmpScope {
  patterns?: string[] | null;
  properties?: Property[] | null;
  constraints?: string[] | null;
}

/**
 * A node's management policy (anax's NodePolicy.GetManagementPolicy): the top-level properties
 * with the management ones over them (same name: management wins), and the management constraints
 * if there are any, else the top-level ones.
 */
export function managementPolicy(doc: NodePolicyDoc | undefined | null): {
  properties: Property[];
  constraints: string[];
} {
  const top = doc?.properties ?? [];
  const management = doc?.management?.properties ?? [];
  const overridden = new Set(management.map((p) => p.name));
  const properties = [...top.filter((p) => !overridden.has(p.name)), ...management];
  const managed = doc?.management?.constraints ?? [];
  return { properties, constraints: managed.length > 0 ? managed : (doc?.constraints ?? []) };
}

/**
 * Pattern mode when the node has a pattern or the NMP lists patterns: the NMP must list the node's
 * pattern (`org/pat`) or its bare name (`pat`, which matches that name in any org, as upstream).
 * Policy mode otherwise: both sides' constraints hold for the other's properties (empty
 * constraints hold).
 */
export function nmpApplies(
  nmp: NmpScope,
  nodePattern: string,
  nodePolicy: NodePolicyDoc | undefined | null,
): boolean {
  const patterns = nmp.patterns ?? [];
  if (nodePattern !== '' || patterns.length > 0) {
    if (patterns.includes(nodePattern)) return true;
    const slash = nodePattern.indexOf('/');
    return slash >= 0 && patterns.includes(nodePattern.slice(slash + 1));
  }
  const node = managementPolicy(nodePolicy);
  return (
    satisfies(node.constraints, nmp.properties ?? []).ok &&
    satisfies(nmp.constraints ?? [], node.properties).ok
  );
}
