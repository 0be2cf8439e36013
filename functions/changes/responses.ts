import * as z from 'zod';

/** `POST /orgs/{org}/changes` answer (upstream's ResourceChangesRespObject). */
export const changesResponse = z
  .object({
    changes: z.array(
      z.object({
        orgId: z.string(),
        resource: z.string(),
        id: z.string(),
        operation: z.string(),
        resourceChanges: z.array(z.object({ changeId: z.number().int(), lastUpdated: z.string() })),
      }),
    ),
    mostRecentChangeId: z.number().int(),
    hitMaxRecords: z.boolean(),
    exchangeVersion: z.string(),
  })
  .meta({ id: 'ResourceChangesRespObject' });

export const maxChangeIdResponse = z
  .object({ maxChangeId: z.number().int() })
  .meta({ id: 'MaxChangeIdResponse' });
