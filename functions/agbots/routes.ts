import * as z from 'zod';
import { agbotPatternsRoutes } from '#functions/agbot-patterns/routes';
import { agbotPoliciesRoutes } from '#functions/agbot-policies/routes';
import { orgPath } from '#lib/ids';
import { aliasRoutes } from '#lib/openapi/alias';
import { attributeResponse, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { agbot, getAgbotsResponse } from './shared/responses.ts';
import { agbotPath, getAgbotQuery, listAgbotsQuery, patchAgbotBody, putAgbotBody } from './shared/schemas.ts';

const writers = 'Its owner, org admins, hub admins, root and the agbot itself';
const WRITE_STATUS_201 =
  "as 200, when the server setting `compat.agbotWriteStatus` is 201 (upstream's status)";

/** Agreement bots (docs/exchange.md#agbots). */
export const agbotsRoutes = routeList({
  folder: 'agbots',
  mounts: ['/v1/orgs/{organization}/agbots', '/v1/orgs/{organization}/agbots/{proxy+}'],
  tag: 'agbots',
  description: 'Agreement bots: they find nodes for deployment patterns and policies and make agreements',
  components: { Agbot: agbot, GetAgbotsResponse: getAgbotsResponse },
  requests: { PutAgbotRequest: putAgbotBody, PatchAgbotRequest: patchAgbotBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots',
      operationId: 'listAgbots',
      handler: () => import('./list-agbots.ts'),
      summary: 'The agbots of an organization',
      description:
        'Any user of the org, org admins, hub admins, root (nodes and agbots: 403). Filters: exact, ' +
        'or SQL LIKE when the value holds `%` (sent as `%25`).',
      request: { path: orgPath, query: listAgbotsQuery },
      responses: {
        200: { description: 'agbots by `org/id`', schema: getAgbotsResponse },
        ...errors(400, 401, 403),
        404: { description: 'none: the empty map', schema: getAgbotsResponse },
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}',
      operationId: 'getAgbot',
      handler: () => import('./get-agbot.ts'),
      summary: 'One agbot, or one of its attributes',
      description: 'Users of the org, hub admins, root and the agbot itself (nodes, other agbots: 403).',
      request: { path: agbotPath, query: getAgbotQuery },
      responses: {
        200: {
          description: 'the agbot, or `{attribute, value}` with `?attribute=`',
          schema: z.union([getAgbotsResponse, attributeResponse]),
        },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}',
      operationId: 'putAgbot',
      handler: () => import('./put-agbot.ts'),
      summary: 'Create or replace an agbot',
      description: `A user of the org creates it and owns it (within the agbots limit). ${writers} replace it.`,
      request: { path: agbotPath, body: putAgbotBody },
      responses: {
        200: okResponse('created or replaced'),
        201: okResponse(WRITE_STATUS_201),
        ...errors(400, 401, 403, 404, 409),
      },
    },
    {
      method: 'PATCH',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}',
      operationId: 'patchAgbot',
      handler: () => import('./patch-agbot.ts'),
      summary: 'Change one attribute of an agbot',
      description: `${writers}. Exactly one of token, name, msgEndPoint, publicKey.`,
      request: { path: agbotPath, body: patchAgbotBody },
      responses: {
        200: okResponse('updated'),
        201: okResponse(WRITE_STATUS_201),
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}',
      operationId: 'deleteAgbot',
      handler: () => import('./delete-agbot.ts'),
      summary: 'Delete an agbot with its agreements, served patterns and policies and messages',
      description: `${writers}.`,
      request: { path: agbotPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/heartbeat',
      operationId: 'postAgbotHeartbeat',
      handler: () => import('./post-heartbeat.ts'),
      summary: "Refresh the agbot's lastHeartbeat",
      description: `${writers}.`,
      request: { path: agbotPath },
      responses: { 201: okResponse('refreshed'), ...errors(400, 401, 403, 404) },
    },
    // Upstream's clients (anax) use these paths for the patterns and policies an agbot serves;
    // this family's `agbots/{proxy+}` mount receives them. Same handlers, records and rules.
    ...aliasRoutes(agbotPatternsRoutes.routes, {
      listAgbotPatterns: '/v1/orgs/{organization}/agbots/{agreementbot}/patterns',
      postAgbotPattern: '/v1/orgs/{organization}/agbots/{agreementbot}/patterns',
      deleteAgbotPatterns: '/v1/orgs/{organization}/agbots/{agreementbot}/patterns',
      getAgbotPattern: '/v1/orgs/{organization}/agbots/{agreementbot}/patterns/{deploymentpattern}',
      deleteAgbotPattern: '/v1/orgs/{organization}/agbots/{agreementbot}/patterns/{deploymentpattern}',
    }),
    ...aliasRoutes(agbotPoliciesRoutes.routes, {
      listAgbotPolicies: '/v1/orgs/{organization}/agbots/{agreementbot}/businesspols',
      postAgbotPolicy: '/v1/orgs/{organization}/agbots/{agreementbot}/businesspols',
      deleteAgbotPolicies: '/v1/orgs/{organization}/agbots/{agreementbot}/businesspols',
      getAgbotPolicy: '/v1/orgs/{organization}/agbots/{agreementbot}/businesspols/{deploymentpolicy}',
      deleteAgbotPolicy: '/v1/orgs/{organization}/agbots/{agreementbot}/businesspols/{deploymentpolicy}',
    }),
  ],
});
