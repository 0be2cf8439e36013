import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  agbotBusinessPol,
  getAgbotBusinessPolsResponse,
  listPoliciesQuery,
  policiesPath,
  policyPath,
  postPolicyBody,
} from './shared/schemas.ts';

const who = 'The owning user or the agbot: its owner, org admins, hub admins, root, the agbot itself.';

/** Deployment policies an agbot serves (docs/exchange.md#served-patterns-and-policies). */
export const agbotPoliciesRoutes = routeList({
  folder: 'agbot-policies',
  mounts: [
    '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies',
    '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies/{proxy+}',
  ],
  tag: 'agbot deployment policies',
  description: 'The deployment (business) policies an agbot serves',
  components: {
    AgbotBusinessPol: agbotBusinessPol,
    GetAgbotBusinessPolsResponse: getAgbotBusinessPolsResponse,
  },
  requests: { PostAgbotBusinessPolRequest: postPolicyBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies',
      operationId: 'listAgbotPolicies',
      handler: () => import('./list-policies.ts'),
      summary: 'The policies an agbot serves',
      description: `${who} Filters: exact, or SQL LIKE with \`%\`; an empty value matches empty fields.`,
      request: { path: policiesPath, query: listPoliciesQuery },
      responses: {
        200: {
          description: 'policies by `<businessPolOrgid>_<businessPol>`',
          schema: getAgbotBusinessPolsResponse,
        },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotBusinessPolsResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies',
      operationId: 'postAgbotPolicy',
      handler: () => import('./post-policy.ts'),
      summary: 'Serve a policy',
      description:
        `${who} Its id is \`<businessPolOrgid>_<businessPol>\`; serving it twice is a 409. Users, org ` +
        "admins and single-org agbots may only serve their own org's policies to nodes of that org (403).",
      request: { path: policiesPath, body: postPolicyBody },
      responses: { 201: okResponse('added'), ...errors(400, 401, 403, 404, 409) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies',
      operationId: 'deleteAgbotPolicies',
      handler: () => import('./delete-policies.ts'),
      summary: 'Stop serving every policy',
      description: `${who} None → 404.`,
      request: { path: policiesPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies/{deploymentpolicy}',
      operationId: 'getAgbotPolicy',
      handler: () => import('./get-policy.ts'),
      summary: 'One served policy',
      description: who,
      request: { path: policyPath },
      responses: {
        200: { description: 'the policy, keyed by its id', schema: getAgbotBusinessPolsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotBusinessPolsResponse),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies/{deploymentpolicy}',
      operationId: 'deleteAgbotPolicy',
      handler: () => import('./delete-policy.ts'),
      summary: 'Stop serving one policy',
      description: who,
      request: { path: policyPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
