import * as z from 'zod';

/** Response body of the agbot agreement reads (docs/exchange.md#agbot-agreements), as agreement-view.ts builds it. */
export const agreementServiceView = z.object({ orgid: z.string(), pattern: z.string(), url: z.string() });

export const agbotAgreement = z.object({
  service: agreementServiceView,
  state: z.string(),
  lastUpdated: z.string(),
  dataLastReceived: z.string(),
});

/** Keyed by agreement id; lastIndex is always 0. */
export const getAgbotAgreementsResponse = z.object({
  agreements: z.record(z.string(), agbotAgreement),
  lastIndex: z.number().int(),
});
