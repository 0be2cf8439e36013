import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { agbotAgreement, agreementServiceView, getAgbotAgreementsResponse } from './shared/responses.ts';
import { agreementPath, agreementsPath, putAgreementBody } from './shared/schemas.ts';

const who = 'The owning user or the agbot: its owner, org admins, hub admins, root, the agbot itself.';

/**
 * Agbot agreements (docs/exchange.md#agbot-agreements). Their confirmation,
 * `POST /v1/orgs/{organization}/agreements/confirm`, is served by the orgs family (functions/orgs/routes.ts),
 * whose `/v1/orgs/{proxy+}` already receives that path.
 */
export const agbotAgreementsRoutes = routeList({
  folder: 'agbot-agreements',
  mounts: [
    '/v1/orgs/{organization}/agbots/{agreementbot}/agreements',
    '/v1/orgs/{organization}/agbots/{agreementbot}/agreements/{proxy+}',
  ],
  tag: 'agbot agreements',
  description: 'The agreements an agbot takes part in',
  components: {
    AgbotAgreement: agbotAgreement,
    AAService: agreementServiceView,
    GetAgbotAgreementsResponse: getAgbotAgreementsResponse,
  },
  requests: { PutAgbotAgreementRequest: putAgreementBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/agreements',
      operationId: 'listAgbotAgreements',
      handler: () => import('./list-agreements.ts'),
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
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/agreements',
      operationId: 'deleteAgbotAgreements',
      handler: () => import('./delete-agreements.ts'),
      summary: 'Delete every agreement of an agbot',
      description: `${who} None → 404.`,
      request: { path: agreementsPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
      operationId: 'getAgbotAgreement',
      handler: () => import('./get-agreement.ts'),
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
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
      operationId: 'putAgbotAgreement',
      handler: () => import('./put-agreement.ts'),
      summary: 'Add or update an agreement',
      description: `${who} Within the agreements-per-agbot limit (403 beyond).`,
      request: { path: agreementPath, body: putAgreementBody },
      responses: { 201: okResponse('added or updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
      operationId: 'deleteAgbotAgreement',
      handler: () => import('./delete-agreement.ts'),
      summary: 'Delete one agreement',
      description: who,
      request: { path: agreementPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
