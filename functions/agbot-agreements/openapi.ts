import { orgPath } from '#lib/ids';
import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import type { ResourceDoc } from '#lib/openapi/route';
import { agbotAgreement, agreementServiceView, getAgbotAgreementsResponse } from './responses.ts';
import { agreementPath, agreementsPath, confirmAgreementBody, putAgreementBody } from './schemas.ts';

const list = '/v1/orgs/{organization}/agbots/{agreementbot}/agreements';
const who = 'The owning user or the agbot: its owner, org admins, hub admins, root, the agbot itself.';

/** Agbot agreements and their confirmation (contract "Agbot agreements"; reference §8.7–§8.8). */
export const agbotAgreementsDoc: ResourceDoc = {
  tag: 'agbot agreements',
  description: 'The agreements an agbot takes part in',
  components: {
    AgbotAgreement: agbotAgreement,
    AAService: agreementServiceView,
    GetAgbotAgreementsResponse: getAgbotAgreementsResponse,
  },
  requests: { PutAgbotAgreementRequest: putAgreementBody, ConfirmAgreementRequest: confirmAgreementBody },
  routes: [
    {
      method: 'GET',
      path: list,
      operationId: 'listAgbotAgreements',
      summary: 'Every agreement of an agbot',
      description: who,
      request: { path: agreementsPath },
      responses: {
        200: { description: 'agreements by id', schema: getAgbotAgreementsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotAgreementsResponse),
      },
    },
    {
      method: 'DELETE',
      path: list,
      operationId: 'deleteAgbotAgreements',
      summary: 'Delete every agreement of an agbot',
      description: `${who} None → 404.`,
      request: { path: agreementsPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: `${list}/{agreement}`,
      operationId: 'getAgbotAgreement',
      summary: 'One agreement of an agbot',
      description: who,
      request: { path: agreementPath },
      responses: {
        200: { description: 'the agreement, keyed by its id', schema: getAgbotAgreementsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotAgreementsResponse),
      },
    },
    {
      method: 'PUT',
      path: `${list}/{agreement}`,
      operationId: 'putAgbotAgreement',
      summary: 'Add or update an agreement',
      description: `${who} Within the agreements-per-agbot limit (403 beyond).`,
      request: { path: agreementPath, body: putAgreementBody },
      responses: { 201: okResponse('added or updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: `${list}/{agreement}`,
      operationId: 'deleteAgbotAgreement',
      summary: 'Delete one agreement',
      description: who,
      request: { path: agreementPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agreements/confirm',
      operationId: 'confirmAgreement',
      summary: 'Confirm that an agreement is active',
      description:
        'Users and agbots of the org, hub admins, root (nodes: 403). 201 when the agreement exists, is ' +
        "active and belongs to an agbot of the caller (a user's own agbots; for an agbot, its owner's).",
      request: { path: orgPath, body: confirmAgreementBody },
      responses: { 201: okResponse('active'), ...errors(400, 401, 403, 404) },
    },
  ],
};
