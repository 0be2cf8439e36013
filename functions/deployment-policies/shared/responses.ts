import * as z from 'zod';

/** Response bodies of the deployment policy endpoints (docs/exchange-catalog.md#policy-body), as the views build them. */
export const deploymentPolicy = z.object({
  owner: z.string(),
  label: z.string(),
  description: z.string(),
  service: z.object({
    name: z.string(),
    org: z.string(),
    arch: z.string(),
    serviceVersions: z.array(z.record(z.string(), z.json())),
    nodeHealth: z.record(z.string(), z.number()),
    clusterNamespace: z.string(),
  }),
  properties: z.array(z.record(z.string(), z.json())),
  constraints: z.array(z.string()),
  userInput: z.array(z.record(z.string(), z.json())),
  secretBinding: z.array(z.record(z.string(), z.json())),
  created: z.string(),
  lastUpdated: z.string(),
});

export const deploymentPoliciesResponse = z
  .object({ businessPolicy: z.record(z.string(), deploymentPolicy), lastIndex: z.number().int() })
  .meta({ id: 'GetBusinessPoliciesResponse' });

export const policyAttributeResponse = z
  .object({ attribute: z.string(), value: z.string() })
  .meta({ id: 'GetBusinessPolicyAttributeResponse' });
