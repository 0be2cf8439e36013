import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  agbotPattern,
  getAgbotPatternsResponse,
  listPatternsQuery,
  patternPath,
  patternsPath,
  postPatternBody,
} from './shared/schemas.ts';

const who = 'The owning user or the agbot: its owner, org admins, hub admins, root, the agbot itself.';

/** Deployment patterns an agbot serves (docs/exchange.md#served-patterns-and-policies). */
export const agbotPatternsRoutes = routeList({
  folder: 'agbot-patterns',
  mounts: [
    '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns',
    '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns/{proxy+}',
  ],
  tag: 'agbot deployment patterns',
  description: 'The deployment patterns an agbot serves (finds nodes for)',
  components: { AgbotPattern: agbotPattern, GetAgbotPatternsResponse: getAgbotPatternsResponse },
  requests: { PostAgbotPatternRequest: postPatternBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns',
      operationId: 'listAgbotPatterns',
      handler: () => import('./list-patterns.ts'),
      summary: 'The patterns an agbot serves',
      description: `${who} Filters: exact, or SQL LIKE with \`%\`; an empty value matches empty fields.`,
      request: { path: patternsPath, query: listPatternsQuery },
      responses: {
        200: { description: 'patterns by `<patternOrgid>_<pattern>`', schema: getAgbotPatternsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotPatternsResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns',
      operationId: 'postAgbotPattern',
      handler: () => import('./post-pattern.ts'),
      summary: 'Serve a pattern',
      description: `${who} Its id is \`<patternOrgid>_<pattern>\`; serving it twice is a 409.`,
      request: { path: patternsPath, body: postPatternBody },
      responses: { 201: okResponse('added'), ...errors(400, 401, 403, 404, 409) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns',
      operationId: 'deleteAgbotPatterns',
      handler: () => import('./delete-patterns.ts'),
      summary: 'Stop serving every pattern',
      description: `${who} None → 404.`,
      request: { path: patternsPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns/{deploymentpattern}',
      operationId: 'getAgbotPattern',
      handler: () => import('./get-pattern.ts'),
      summary: 'One served pattern',
      description: who,
      request: { path: patternPath },
      responses: {
        200: { description: 'the pattern, keyed by its id', schema: getAgbotPatternsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotPatternsResponse),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns/{deploymentpattern}',
      operationId: 'deleteAgbotPattern',
      handler: () => import('./delete-pattern.ts'),
      summary: 'Stop serving one pattern',
      description: who,
      request: { path: patternPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
