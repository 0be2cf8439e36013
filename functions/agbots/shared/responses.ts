import * as z from 'zod';

/** Response bodies of the agbot endpoints (docs/exchange.md#record-shapes, #agbots), as agbot-view.ts builds them. */
export const agbot = z.object({
  id: z.string().describe('`org/id`'),
  lastHeartbeat: z.string().describe('ISO 8601 followed by the zone name in brackets, e.g. `…Z[UTC]`'),
  msgEndPoint: z.string(),
  name: z.string(),
  orgid: z.string(),
  owner: z.string().describe('`org/username` of the owning user'),
  publicKey: z.string(),
  token: z.string().describe('always masked'),
});

/** Keyed by `org/id`; lastIndex is always 0. */
export const getAgbotsResponse = z.object({
  agbots: z.record(z.string(), agbot),
  lastIndex: z.number().int(),
});
