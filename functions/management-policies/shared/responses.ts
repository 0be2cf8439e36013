import * as z from 'zod';

/** Response bodies of the management policy endpoints (docs/nmp.md#the-exchange), as view.ts builds them. */
export const managementPolicy = z.object({
  owner: z.string(),
  label: z.string(),
  description: z.string(),
  constraints: z.array(z.string()),
  properties: z.array(z.record(z.string(), z.json())),
  patterns: z.array(z.string()),
  enabled: z.boolean(),
  start: z.string(),
  startWindow: z.number().int(),
  agentUpgradePolicy: z.object({ allowDowngrade: z.boolean(), manifest: z.string() }),
  created: z.string(),
  lastUpdated: z.string().describe('`…Z[UTC]` with six fraction digits (docs/nmp.md#timestamps)'),
});

export const managementPoliciesResponse = z
  .object({ managementPolicy: z.record(z.string(), managementPolicy), lastIndex: z.number().int() })
  .meta({ id: 'GetManagementPoliciesResponse' });

export const policyAttributeResponse = z
  .object({ attribute: z.string(), value: z.string() })
  .meta({ id: 'GetManagementPolicyAttributeResponse' });
