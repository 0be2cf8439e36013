import * as z from 'zod';
import { idSegment } from '#lib/ids';

/** `POST /orgs/{org}/changes` body (upstream's ResourceChangesRequest). */
export const changesBody = z
  .strictObject({
    changeId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    lastUpdated: z
      .string()
      .max(64)
      .refine((text) => !Number.isNaN(Date.parse(text.replace(/\[.*\]$/, ''))), 'must be an ISO 8601 time')
      .optional(),
    maxRecords: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    orgList: z
      .array(z.union([idSegment, z.literal('*')]))
      .max(1000)
      .optional(),
  })
  .meta({ id: 'ResourceChangesRequest' });
