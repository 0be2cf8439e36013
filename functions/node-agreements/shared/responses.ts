import * as z from 'zod';

/** Response body of the node agreement reads (docs/exchange.md#node-agreements), as agreement-view.ts builds it. */
export const naService = z.object({ orgid: z.string(), url: z.string() });
export const nAgrService = z.object({ orgid: z.string(), pattern: z.string(), url: z.string() });

/** Note upstream's key `agrService` (the PUT body says `agreementService`). */
export const nodeAgreement = z.object({
  services: z.array(naService),
  agrService: nAgrService,
  state: z.string(),
  lastUpdated: z.string(),
});

/** Keyed by agreement id; lastIndex is always 0. */
export const getNodeAgreementsResponse = z.object({
  agreements: z.record(z.string(), nodeAgreement),
  lastIndex: z.number().int(),
});
