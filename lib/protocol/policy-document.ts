/**
 * The policy document of the Basic protocol (anax policy/policy_file.go `Policy`): the T&C that
 * the proposal carries as `tsandcs`, and the node policy it carries as `producerPolicy`, both as
 * JSON strings. Field names are upstream's JSON tags. Unknown keys are dropped on parse (Go
 * ignores them); legacy sections (valueExchange, dataVerification, proposalRejection) are kept
 * as opaque objects because upstream agbots still send them.
 */
import * as z from 'zod';
import { secretBindingSchema } from './secret-binding.ts';

export const POLICY_DOCUMENT_VERSION = '2.0';

export const propertySchema = z.object({
  name: z.string(),
  value: z.unknown(),
  type: z.string().optional(),
});
export type Property = z.infer<typeof propertySchema>;

const priority = z.object({
  priority_value: z.int().optional(),
  retries: z.int().optional(),
  retry_durations: z.int().optional(),
  verified_durations: z.int().optional(),
});

/** One service to run: its deployment string and signature are copied from the Exchange service. */
const workloadSchema = z.object({
  deployment: z.string().optional(),
  deployment_signature: z.string().optional(),
  deployment_user_info: z.string().optional(),
  workload_password: z.string().optional(),
  cluster_deployment: z.string().optional(),
  cluster_deployment_signature: z.string().optional(),
  priority: priority.optional(),
  workloadUrl: z.string().optional(),
  organization: z.string().optional(),
  version: z.string().optional(),
  arch: z.string().optional(),
  deployment_overrides: z.string().optional(),
  deployment_overrides_signature: z.string().optional(),
});
export type Workload = z.infer<typeof workloadSchema>;

/** A resolved dependency (pattern case only). */
const apiSpecSchema = z.object({
  specRef: z.string(),
  organization: z.string(),
  version: z.string(),
  exclusiveAccess: z.boolean(),
  arch: z.string(),
});

export const userInputSchema = z.object({
  serviceOrgid: z.string(),
  serviceUrl: z.string(),
  serviceArch: z.string().optional(),
  serviceVersionRange: z.string().optional(),
  inputs: z.array(z.object({ name: z.string(), value: z.unknown() })).nullable(),
});
export type UserInput = z.infer<typeof userInputSchema>;

const legacy = z.record(z.string(), z.unknown());

export const policyDocumentSchema = z.object({
  header: z.object({ name: z.string(), version: z.string() }),
  patternId: z.string().optional(),
  apiSpec: z.array(apiSpecSchema).optional(),
  agreementProtocols: z
    .array(
      z.object({
        name: z.string(),
        protocolVersion: z.int().optional(),
        blockchains: z.unknown().optional(),
      }),
    )
    .optional(),
  workloads: z.array(workloadSchema).optional(),
  deviceType: z.string().optional(),
  valueExchange: legacy.optional(),
  dataVerification: legacy.optional(),
  proposalRejection: legacy.optional(),
  maxAgreements: z.int().optional(),
  properties: z.array(propertySchema).nullish(),
  constraints: z.array(z.string()).nullish(),
  requiredWorkload: z.string().optional(),
  nodeHealth: z
    .object({ missing_heartbeat_interval: z.int().optional(), check_agreement_status: z.int().optional() })
    .optional(),
  userInput: z.array(userInputSchema).optional(),
  secretBinding: z.array(secretBindingSchema).optional(),
  secretDetails: z.array(secretBindingSchema).optional(),
  clusterNamespace: z.string().optional(),
});
export type PolicyDocument = z.infer<typeof policyDocumentSchema>;

/** The header name the agbot gives a node's policy (anax policy.go): `Policy for <org>/<node>`. */
export const nodePolicyName = (nodeId: string): string => `Policy for ${nodeId}`;

/**
 * The T&C header name (anax policy_file.go): producer name + " merged with " + consumer name,
 * e.g. `Policy for myorg/node1 merged with myorg/mypolicy`. Unique per (node, policy): the node
 * refuses a second concurrent agreement with the same name.
 */
export const termsName = (producerPolicyName: string, consumerPolicyName: string): string =>
  `${producerPolicyName} merged with ${consumerPolicyName}`;
