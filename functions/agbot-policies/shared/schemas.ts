import * as z from 'zod';
import { nodeOrgid, servedFilter, servedId, servedName } from '#functions/agbot-patterns/shared/schemas';
import { agbotPath } from '#functions/agbots/shared/schemas';

/**
 * Schemas of the agbot's served deployment policies
 * (docs/exchange.md#served-patterns-and-policies): requests, validated by the handlers, and responses, for the OpenAPI document.
 */
export const policiesPath = agbotPath;
export const policyPath = agbotPath.extend({ deploymentpolicy: servedId });
export type PolicyPath = z.infer<typeof policyPath>;

export const postPolicyBody = z.strictObject({
  businessPolOrgid: servedName,
  businessPol: servedName,
  nodeOrgid,
});

export const listPoliciesQuery = z.object({
  deployment_policy: servedFilter,
  deployment_policy_organization: servedFilter,
  node_organization: servedFilter,
});

/** One served policy as GET returns it. */
export const agbotBusinessPol = z.object({
  businessPolOrgid: z.string(),
  businessPol: z.string(),
  nodeOrgid: z.string(),
  lastUpdated: z.string(),
});

/** GET (list and one): keyed by `<businessPolOrgid>_<businessPol>`; no `lastIndex`. None → 404 with `{}`. */
export const getAgbotBusinessPolsResponse = z.object({
  businessPols: z.record(z.string(), agbotBusinessPol),
});
