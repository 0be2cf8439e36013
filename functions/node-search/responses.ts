import * as z from 'zod';

const foundNode = z.object({ id: z.string(), nodeType: z.string(), publicKey: z.string() });

export const patternSearchResponse = z
  .object({ nodes: z.array(foundNode), lastIndex: z.number().int() })
  .meta({ id: 'PostPatternSearchResponse' });

export const policySearchResponse = z
  .object({ nodes: z.array(foundNode), offsetUpdated: z.boolean() })
  .meta({ id: 'PostBusinessPolicySearchResponse' });

/** The 409 of a policy search whose session is not the stored one: anax adopts `session` and retries. */
export const policySearchConflict = z
  .object({ agbot: z.string(), offset: z.string().nullable(), session: z.string(), msg: z.string() })
  .meta({ id: 'PostBusinessPolicySearchConflict' });

export const nodeHealthResponse = z
  .object({
    nodes: z.record(
      z.string(),
      z.object({
        lastHeartbeat: z.string(),
        agreements: z.record(z.string(), z.object({ lastUpdated: z.string() })),
      }),
    ),
  })
  .meta({ id: 'PostNodeHealthResponse' });
