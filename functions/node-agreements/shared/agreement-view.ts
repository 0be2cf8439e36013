import type * as z from 'zod';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import type { NodeAgreementRecord } from '#tables/node/agreement-records';
import type { getNodeAgreementsResponse, nodeAgreement } from './responses.ts';

/** An agreement as upstream returns it (docs/exchange.md#node-agreements), keyed by its id in the response. */
export const agreementView = (agreement: NodeAgreementRecord): z.infer<typeof nodeAgreement> => ({
  services: agreement.services.map((s) => ({ orgid: s.orgid, url: s.url })),
  agrService: {
    orgid: agreement.agrService.orgid,
    pattern: agreement.agrService.pattern,
    url: agreement.agrService.url,
  },
  state: agreement.state,
  lastUpdated: agreement.lastUpdated,
});

/** `{agreements: {<id>: NodeAgreement}, lastIndex: 0}`, or upstream's 404 with the empty map. */
export function agreementsResponse(agreements: NodeAgreementRecord[]) {
  const body: z.infer<typeof getNodeAgreementsResponse> = {
    agreements: Object.fromEntries(agreements.map((a) => [a.agreementId, agreementView(a)])),
    lastIndex: 0,
  };
  if (agreements.length === 0) throw emptyList(body);
  return json(200, body);
}
