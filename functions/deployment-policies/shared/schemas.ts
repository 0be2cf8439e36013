import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { filterParam } from '#lib/like';

/**
 * Request schemas of the deployment policy endpoints (docs/exchange-catalog.md#policy-body). Bodies are strict
 * at every level (unknown fields → 400 naming them); every string and list is bounded, so a
 * hostile body is a 400 naming the field, never an item DynamoDB refuses.
 */
const SHORT = 4096;
const short = z.string().max(SHORT, `must be at most ${SHORT} characters`);
const list = <T extends z.ZodType>(entry: T) => z.array(entry).max(1000, 'must have at most 1000 entries');
const ints = z.record(short, z.number().int());

export const policiesPath = z.object({ organization: idSegment });
export const policyPath = z.object({ organization: idSegment, policy: idSegment });
export type PolicyPath = z.infer<typeof policyPath>;

const serviceVersion = z.strictObject({
  version: short,
  priority: ints.nullish(),
  upgradePolicy: z.record(short, short).nullish(),
});

const policyService = z.strictObject({
  name: short,
  org: short,
  arch: short,
  serviceVersions: list(serviceVersion),
  nodeHealth: ints.nullish(),
  clusterNamespace: short.nullish(),
});
export type PolicyService = z.infer<typeof policyService>;

const property = z.strictObject({ name: short, type: short.nullish(), value: z.json() });

/** userInput entries (patterns and policies): which service, and name/value pairs for it. */
export const userInputEntry = z.strictObject({
  serviceOrgid: short,
  serviceUrl: short,
  serviceArch: short.nullish(),
  serviceVersionRange: short.nullish(),
  inputs: list(z.strictObject({ name: short, value: z.json() })),
});
export type UserInputEntry = z.infer<typeof userInputEntry>;

/** secretBinding entries: service secret name → secrets-manager name, one map per entry. */
export const secretBindingEntry = z.strictObject({
  serviceOrgid: short,
  serviceUrl: short,
  serviceArch: short.nullish(),
  serviceVersionRange: short.nullish(),
  enableNodeLevelSecrets: z.boolean().nullish(),
  secrets: list(z.record(short, short)),
});

const policyFields = {
  label: short,
  description: short.nullish(),
  service: policyService,
  properties: list(property).nullish(),
  constraints: list(short).nullish(),
  userInput: list(userInputEntry).nullish(),
  secretBinding: list(secretBindingEntry).nullish(),
};

/** POST and PUT (upstream's PostPutBusinessPolicyRequest). */
export const policyBody = z.strictObject(policyFields);
export type PolicyBody = z.infer<typeof policyBody>;

/** PATCH: every field optional; the handler applies the first one present in upstream's order. */
export const patchPolicyBody = z.strictObject({
  ...policyFields,
  label: short.nullish(),
  service: policyService.nullish(),
});

export const listPoliciesQuery = z.strictObject({
  idfilter: filterParam.optional(),
  owner: filterParam.optional(),
  label: filterParam.optional(),
  description: filterParam.optional(),
});

export const getPolicyQuery = z.strictObject({ attribute: short.optional() });
