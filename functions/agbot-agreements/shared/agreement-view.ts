import type * as z from 'zod';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import type { AgreementRecord } from '#tables/agbot/agreement-records';
import type { agbotAgreement, getAgbotAgreementsResponse } from './responses.ts';

/** An agreement as upstream returns it (docs/exchange.md#agbot-agreements), keyed by its id in the response. */
export const agreementView = (agreement: AgreementRecord): z.infer<typeof agbotAgreement> => ({
  service: {
    orgid: agreement.service.orgid,
    pattern: agreement.service.pattern,
    url: agreement.service.url,
  },
  state: agreement.state,
  lastUpdated: agreement.lastUpdated,
  dataLastReceived: agreement.dataLastReceived,
});

/** `{agreements: {<id>: Agreement}, lastIndex: 0}`, or upstream's 404 with the empty map. */
export function agreementsResponse(agreements: AgreementRecord[]) {
  const body: z.infer<typeof getAgbotAgreementsResponse> = {
    agreements: Object.fromEntries(agreements.map((a) => [a.agreementId, agreementView(a)])),
    lastIndex: 0,
  };
  if (agreements.length === 0) throw emptyList(body);
  return json(200, body);
}
