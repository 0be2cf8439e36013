import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import type { AgreementRecord } from '#tables/agbot-agreement-records';

/** An agreement as upstream returns it (reference §8.7), keyed by its id in the response. */
export const agreementView = (agreement: AgreementRecord) => ({
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
  const body = {
    agreements: Object.fromEntries(agreements.map((a) => [a.agreementId, agreementView(a)])),
    lastIndex: 0,
  };
  if (agreements.length === 0) throw emptyList(body);
  return json(200, body);
}
