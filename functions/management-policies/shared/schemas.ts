import * as z from 'zod';
import { idSegment } from '#lib/ids';
import { filterParam } from '#lib/like';
import { managementPolicyBody } from '#lib/nmp/policy-body';

/** Request schemas of /v1/orgs/{organization}/managementpolicies (docs/nmp.md#the-exchange). */

export const policiesPath = z.object({ organization: idSegment });
export const policyPath = z.object({ organization: idSegment, mgmtpolicy: idSegment });
export type PolicyPath = z.infer<typeof policyPath>;

/** POST and PUT: upstream's PostPutManagementPolicyRequest, strict (lib/nmp/policy-body.ts). */
export const policyBody = managementPolicyBody;

export const listPoliciesQuery = z.strictObject({
  idfilter: filterParam.optional(),
  owner: filterParam.optional(),
  label: filterParam.optional(),
  description: filterParam.optional(),
  manifest: filterParam.optional(),
});

export const getPolicyQuery = z.strictObject({ attribute: z.string().max(64).optional() });
