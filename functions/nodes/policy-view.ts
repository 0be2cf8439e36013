import type * as z from 'zod';
import type { NodePolicyRecord } from '#tables/node/policy-records';
import type { nodePolicy } from './responses.ts';
import type { PutNodePolicyBody } from './schemas.ts';

/** Node policies as stored (absent options omitted) and as upstream returns them (docs/exchange.md#node-policy). */
// biome-ignore lint/suspicious/noExplicitAny: stored properties are validated on write and read back loosely.
type Loose = Record<string, any>;
type Property = NonNullable<PutNodePolicyBody['properties']>[number];
type Section = PutNodePolicyBody['deployment'];

const storedProperty = (p: Property) => ({
  name: p.name,
  ...(p.type != null ? { type: p.type } : {}),
  value: p.value,
});
const storedSection = (section: Section) => ({
  ...(section?.properties != null ? { properties: section.properties.map(storedProperty) } : {}),
  ...(section?.constraints != null ? { constraints: section.constraints } : {}),
});

/** The record a PUT stores: description defaults to the label. */
export function storedPolicy(
  org: string,
  id: string,
  body: PutNodePolicyBody,
  lastUpdated: string,
): NodePolicyRecord {
  return {
    org,
    id,
    label: body.label ?? '',
    description: body.description ?? body.label ?? '',
    properties: (body.properties ?? []).map(storedProperty),
    constraints: body.constraints ?? [],
    deployment: storedSection(body.deployment),
    ...(body.management != null ? { management: storedSection(body.management) } : {}),
    nodePolicyVersion: body.nodePolicyVersion ?? '',
    lastUpdated,
  };
}

const propertyView = (p: Loose) => ({
  name: p.name,
  ...(p.type != null ? { type: p.type } : {}),
  value: p.value,
});
const sectionView = (section: Loose | undefined) => ({
  properties: section?.properties ? (section.properties as Loose[]).map(propertyView) : null,
  constraints: section?.constraints ?? null,
});

/** Typed by the response schema: a stored field that is not in it fails `tsc`. */
export function nodePolicyView(policy: NodePolicyRecord): z.infer<typeof nodePolicy> {
  return {
    label: policy.label,
    description: policy.description,
    properties: (policy.properties as Loose[]).map(propertyView),
    constraints: policy.constraints,
    deployment: sectionView(policy.deployment as Loose),
    management: sectionView(policy.management as Loose | undefined),
    nodePolicyVersion: policy.nodePolicyVersion,
    lastUpdated: policy.lastUpdated,
  };
}

const POLICY_TYPES = ['string', 'int', 'float', 'boolean', 'list of strings', 'version'];

/** Upstream's one check on a policy body: every given property type is a known one. */
export function policyProblem(body: PutNodePolicyBody): string | undefined {
  const all = [
    ...(body.properties ?? []),
    ...(body.deployment?.properties ?? []),
    ...(body.management?.properties ?? []),
  ];
  const bad = all.find((p) => p.type != null && !POLICY_TYPES.includes(p.type));
  return bad ? `The properties.type value '${bad.type}' must be 1 of: ${POLICY_TYPES.join(', ')}` : undefined;
}
