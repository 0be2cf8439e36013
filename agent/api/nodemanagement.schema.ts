import * as z from 'zod';
import { NMP_STATUS_VALUES } from '../nmp/rules.ts';

/** PUT /nodemanagement/status/{nmp}: only `agentUpgradePolicyStatus` can be updated; unknown fields are ignored. */
export const statusBody = z.object({
  agentUpgradePolicyStatus: z
    .object({
      status: z
        .enum(NMP_STATUS_VALUES, { error: `must be one of: ${NMP_STATUS_VALUES.join(', ')}` })
        .optional(),
      startTime: z.string().optional(),
      endTime: z.string().optional(),
      errorMessage: z.string().max(4096).optional(),
    })
    .optional(),
});

/** GET /nodemanagement/nextjob: `type` only agentUpgrade; `ready` true or false (each optional). */
export const nextJobQuery = z.object({
  type: z.literal('agentUpgrade', { error: 'jobType currently only supports "agentUpgrade".' }).optional(),
  ready: z
    .enum(['true', 'false'], { error: 'invalid value for "ready" argument.' })
    .transform((value) => value === 'true')
    .optional(),
});
