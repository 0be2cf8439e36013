import * as z from 'zod';

/** Response bodies of the deployment pattern endpoints (docs/exchange-catalog.md#pattern-body), as the views build them. */
const deploymentPattern = z.object({
  owner: z.string(),
  label: z.string(),
  description: z.string(),
  public: z.boolean(),
  services: z.array(z.record(z.string(), z.json())),
  userInput: z.array(z.record(z.string(), z.json())),
  secretBinding: z.array(z.record(z.string(), z.json())),
  agreementProtocols: z.array(z.record(z.string(), z.json())),
  lastUpdated: z.string(),
  clusterNamespace: z.string(),
});

export const patternsResponse = z
  .object({ patterns: z.record(z.string(), deploymentPattern), lastIndex: z.number().int() })
  .meta({ id: 'GetPatternsResponse' });

export const patternAttributeResponse = z
  .object({ attribute: z.string(), value: z.string() })
  .meta({ id: 'GetPatternAttributeResponse' });
