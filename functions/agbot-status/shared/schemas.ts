import * as z from 'zod';
import { idSegment, orgPath } from '#lib/ids';

/**
 * Schemas of the in-stack agbot's status (docs/agbot.md "Status"): requests, validated by the
 * handlers, and responses, for the OpenAPI document.
 */
export const statusPoliciesPath = orgPath;
export const statusPolicyPath = orgPath.extend({ policy: idSegment });
export type StatusPolicyPath = z.infer<typeof statusPolicyPath>;

export const statusAgreementsQuery = z.object({
  archived: z
    .string()
    .refine((value) => /^(true|false)$/i.test(value), { message: "must be 'true' or 'false'" })
    .transform((value) => value.toLowerCase() === 'true')
    .optional(),
});

/** Upstream's agbot `GET /policy/{org}`: the org → the names of its policies served. */
export const policyNamesResponse = z.record(z.string(), z.array(z.string()));

/** One served policy (or pattern service): counts from the live agreements, the last search, skipped nodes. */
export const policyStatusResponse = z.object({
  org: z.string(),
  name: z.string(),
  pattern: z.string().optional(),
  matched: z.number().int(),
  proposed: z.number().int(),
  agreed: z.number().int(),
  running: z.number().int(),
  failing: z.number().int(),
  lastSearch: z
    .object({
      at: z.string(),
      full: z.boolean(),
      found: z.number().int(),
      matched: z.number().int(),
      skipped: z.number().int(),
    })
    .optional(),
  skipped: z.array(z.object({ node: z.string(), reason: z.string(), since: z.string() })),
});

/** Upstream's agbot agreement fields (anax `GET /agreement`), plus the state and the service. */
export const statusAgreement = z.looseObject({
  current_agreement_id: z.string(),
  org: z.string(),
  device_id: z.string(),
  agreement_protocol: z.string(),
  agreement_inception_time: z.number().int(),
  agreement_creation_time: z.number().int(),
  agreement_finalized_time: z.number().int(),
  agreement_timeout: z.number().int(),
  policy_name: z.string(),
  pattern: z.string(),
  archived: z.boolean(),
  terminated_reason: z.number().int(),
  terminated_description: z.string(),
});

export const statusAgreementsResponse = z.object({
  agreements: z.object({
    active: z.array(statusAgreement).optional(),
    archived: z.array(statusAgreement).optional(),
  }),
});
