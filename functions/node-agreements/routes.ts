import { noHeartbeatQuery } from '#functions/nodes/schemas';
import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { getNodeAgreementsResponse, nAgrService, naService, nodeAgreement } from './shared/responses.ts';
import { agreementPath, agreementsPath, putAgreementBody } from './shared/schemas.ts';

const readers = 'Whoever may read the node: the node itself, its owner, org admins, root, agbots of the org.';
const writers = 'Whoever may write the node: the node itself, its owner, org admins, root (not agbots).';

/** Node agreements (docs/exchange.md#node-agreements; docs/exchange-catalog.md#node-sub-resources): what the node agent records of each agreement. */
export const nodeAgreementsRoutes = routeList({
  folder: 'node-agreements',
  mounts: [
    '/v1/orgs/{organization}/nodes/{node}/agreements',
    '/v1/orgs/{organization}/nodes/{node}/agreements/{proxy+}',
  ],
  tag: 'node agreements',
  description: 'The agreements a node takes part in',
  components: {
    NodeAgreement: nodeAgreement,
    NAService: naService,
    NAgrService: nAgrService,
    GetNodeAgreementsResponse: getNodeAgreementsResponse,
  },
  requests: { PutNodeAgreementRequest: putAgreementBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/agreements',
      operationId: 'listNodeAgreements',
      handler: () => import('./list-agreements.ts'),
      summary: 'Every agreement of a node',
      description: readers,
      request: { path: agreementsPath },
      responses: {
        200: { description: 'agreements by id', schema: getNodeAgreementsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getNodeAgreementsResponse),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}/agreements',
      operationId: 'deleteNodeAgreements',
      handler: () => import('./delete-agreements.ts'),
      summary: 'Delete every agreement of a node',
      description: `${writers} Stamps the node's lastUpdated. None → 404.`,
      request: { path: agreementsPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
      operationId: 'getNodeAgreement',
      handler: () => import('./get-agreement.ts'),
      summary: 'One agreement of a node',
      description: readers,
      request: { path: agreementPath },
      responses: {
        200: { description: 'the agreement, keyed by its id', schema: getNodeAgreementsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getNodeAgreementsResponse),
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
      operationId: 'putNodeAgreement',
      handler: () => import('./put-agreement.ts'),
      summary: 'Add or update an agreement of a node',
      description:
        `${writers} At least one of \`services\` and \`agreementService\`; \`agreementService.url\` is ` +
        '`<svcOrg>/<svcUrl>`, what searches compare. Within the agreements-per-node limit (403 beyond). ' +
        "Stamps the node's lastUpdated, and lastHeartbeat unless `noheartbeat=true`.",
      request: { path: agreementPath, query: noHeartbeatQuery, body: putAgreementBody },
      responses: { 201: okResponse('added or updated'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}/agreements/{agid}',
      operationId: 'deleteNodeAgreement',
      handler: () => import('./delete-agreement.ts'),
      summary: 'Delete one agreement of a node',
      description: `${writers} Stamps the node's lastUpdated.`,
      request: { path: agreementPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
