import { nodeHealthResponse, patternSearchResponse } from '#functions/node-search/responses';
import { nodeHealthBody, patternSearchBody } from '#functions/node-search/schemas';
import { keyIdList } from '#functions/services/shared/responses';
import { keyBodyDoc } from '#functions/services/shared/schemas';
import { withAliases } from '#lib/openapi/alias';
import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { patternAttributeResponse, patternsResponse } from './shared/responses.ts';
import {
  getPatternQuery,
  listPatternsQuery,
  patchPatternBody,
  patternBody,
  patternKeyPath,
  patternPath,
  patternsPath,
} from './shared/schemas.ts';

const writers = 'The owner, org admins, root; 404 when missing.';

/** Deployment patterns (docs/exchange-catalog.md#patterns): anax's `/patterns/...` and the documented `/deployment/patterns/...`. */
export const patternsRoutes = routeList({
  folder: 'patterns',
  mounts: [
    '/v1/orgs/{organization}/patterns',
    '/v1/orgs/{organization}/patterns/{proxy+}',
    '/v1/orgs/{organization}/deployment/patterns',
    '/v1/orgs/{organization}/deployment/patterns/{proxy+}',
  ],
  tag: 'deployment patterns',
  description: 'Deployment patterns: which services every node registered with the pattern runs',
  components: {
    GetPatternsResponse: patternsResponse,
    GetPatternAttributeResponse: patternAttributeResponse,
  },
  requests: { PostPutPatternRequest: patternBody, PatchPatternRequest: patchPatternBody },
  routes: withAliases(
    [
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/patterns',
        operationId: 'getPatterns',
        handler: () => import('./list-patterns.ts'),
        summary: "The org's deployment patterns",
        description:
          "Everyone but hub admins. Users and admins of another org see its public patterns (and all of org IBM's). " +
          'Filters `idfilter` (`org/name`), `owner`, `label`, `description`, `clusternamespace` (exact, or LIKE with `%`), `public`. ' +
          'None: 404 with the empty map.',
        request: { path: patternsPath, query: listPatternsQuery },
        responses: {
          200: { description: 'the patterns', schema: patternsResponse },
          404: { description: 'none', schema: patternsResponse },
          ...errors(400, 401, 403),
        },
      },
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/patterns/{pattern}',
        operationId: 'getPattern',
        handler: () => import('./get-pattern.ts'),
        summary: 'One deployment pattern, or one attribute of it',
        description:
          'Identities of the org, anyone for a public pattern, multi-tenant agbots, root. Missing: 404 with the empty map.',
        request: { path: patternPath, query: getPatternQuery },
        responses: {
          200: { description: 'the pattern (or `{attribute,value}`)', schema: patternsResponse },
          404: { description: 'missing', schema: patternsResponse },
          ...errors(400, 401, 403),
        },
      },
      {
        method: 'POST',
        path: '/v1/orgs/{organization}/patterns/{pattern}',
        operationId: 'postPattern',
        handler: () => import('./post-pattern.ts'),
        summary: 'Create a deployment pattern',
        description:
          'Users and admins of the org, root. Every service version and userInput service must exist; `public: true` only in an org of type IBM; ' +
          'an owner at `limits.maxPatterns` gets 403. Duplicate: 403 already-exists.',
        request: { path: patternPath, body: patternBody },
        responses: { 201: okResponse('created'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'PUT',
        path: '/v1/orgs/{organization}/patterns/{pattern}',
        operationId: 'putPattern',
        handler: () => import('./put-pattern.ts'),
        summary: 'Replace a deployment pattern',
        description: `${writers} Checks as POST; the caller becomes the owner.`,
        request: { path: patternPath, body: patternBody },
        responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'PATCH',
        path: '/v1/orgs/{organization}/patterns/{pattern}',
        operationId: 'patchPattern',
        handler: () => import('./patch-pattern.ts'),
        summary: 'Change one attribute of a deployment pattern',
        description: `${writers} The first present of agreementProtocols, clusterNamespace, description, label, public, secretBinding, services, userInput.`,
        request: { path: patternPath, body: patchPatternBody },
        responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'DELETE',
        path: '/v1/orgs/{organization}/patterns/{pattern}',
        operationId: 'deletePattern',
        handler: () => import('./delete-pattern.ts'),
        summary: 'Delete a deployment pattern and its keys',
        description: writers,
        request: { path: patternPath },
        responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
      },
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/patterns/{pattern}/keys',
        operationId: 'getPatternKeys',
        handler: () => import('./list-pattern-keys.ts'),
        summary: "A pattern's key ids",
        description: 'Whoever may read the pattern. None → 404 `[]`.',
        request: { path: patternPath },
        responses: {
          200: { description: 'key ids', schema: keyIdList },
          ...errors(400, 401, 403),
          404: emptyListOrError(keyIdList),
        },
      },
      {
        method: 'DELETE',
        path: '/v1/orgs/{organization}/patterns/{pattern}/keys',
        operationId: 'deletePatternKeys',
        handler: () => import('./delete-pattern-keys.ts'),
        summary: 'Delete every key of a pattern',
        description: 'Whoever may write the pattern.',
        request: { path: patternPath },
        responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
      },
      {
        method: 'GET',
        path: '/v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}',
        operationId: 'getPatternKey',
        handler: () => import('./get-pattern-key.ts'),
        summary: 'One key',
        description: 'Whoever may read the pattern. The key as `text/plain`.',
        request: { path: patternKeyPath },
        responses: { 200: { description: 'the key', text: true }, ...errors(400, 401, 403, 404) },
      },
      {
        method: 'PUT',
        path: '/v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}',
        operationId: 'putPatternKey',
        handler: () => import('./put-pattern-key.ts'),
        summary: 'Store a key',
        description:
          'Whoever may write the pattern. The body is the key or certificate text itself (any content type).',
        request: { path: patternKeyPath, rawBody: keyBodyDoc },
        responses: { 201: okResponse('added or updated'), ...errors(400, 401, 403, 404) },
      },
      {
        method: 'DELETE',
        path: '/v1/orgs/{organization}/patterns/{pattern}/keys/{keyid}',
        operationId: 'deletePatternKey',
        handler: () => import('./delete-pattern-key.ts'),
        summary: 'Delete a key',
        description: 'Whoever may write the pattern.',
        request: { path: patternKeyPath },
        responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
      },
      {
        method: 'POST',
        path: '/v1/orgs/{organization}/patterns/{pattern}/search',
        operationId: 'postPatternSearch',
        handler: () => import('./search-pattern.ts'),
        summary: 'The nodes registered with the pattern that an agbot may propose a service to',
        description:
          'Org admins, agbots of the org (for what they serve), multi-tenant agbots, root. Nodes of `nodeOrgids` (default the org) ' +
          'with this pattern, a public key and a heartbeat (within `secondsStale` when > 0), the `arch` asked (none, "" or `*`: any), ' +
          'and no agreement for `serviceUrl` (`org/url`) with a state. `numEntries`/`startIndex` are ignored. None: 404 with `nodes: []`.',
        request: { path: patternPath, body: patternSearchBody },
        responses: {
          201: { description: 'the nodes', schema: patternSearchResponse },
          404: { description: 'none', schema: patternSearchResponse },
          ...errors(400, 401, 403),
        },
      },
      {
        method: 'POST',
        path: '/v1/orgs/{organization}/patterns/{pattern}/nodehealth',
        operationId: 'postPatternNodeHealth',
        handler: () => import('./pattern-node-health.ts'),
        summary: 'Heartbeats and agreement times of the nodes registered with the pattern',
        description:
          'As the search. Nodes of `nodeOrgids` (default the org) with this pattern that heartbeated at or after `lastTime` ("" = ever). None: 404 `{"nodes":{}}`.',
        request: { path: patternPath, body: nodeHealthBody },
        responses: {
          201: { description: 'the nodes', schema: nodeHealthResponse },
          404: { description: 'none', schema: nodeHealthResponse },
          ...errors(400, 401, 403),
        },
      },
    ],
    {
      getPatterns: '/v1/orgs/{organization}/deployment/patterns',
      getPattern: '/v1/orgs/{organization}/deployment/patterns/{pattern}',
      postPattern: '/v1/orgs/{organization}/deployment/patterns/{pattern}',
      putPattern: '/v1/orgs/{organization}/deployment/patterns/{pattern}',
      patchPattern: '/v1/orgs/{organization}/deployment/patterns/{pattern}',
      deletePattern: '/v1/orgs/{organization}/deployment/patterns/{pattern}',
      getPatternKeys: '/v1/orgs/{organization}/deployment/patterns/{pattern}/keys',
      deletePatternKeys: '/v1/orgs/{organization}/deployment/patterns/{pattern}/keys',
      getPatternKey: '/v1/orgs/{organization}/deployment/patterns/{pattern}/keys/{keyid}',
      putPatternKey: '/v1/orgs/{organization}/deployment/patterns/{pattern}/keys/{keyid}',
      deletePatternKey: '/v1/orgs/{organization}/deployment/patterns/{pattern}/keys/{keyid}',
      postPatternSearch: '/v1/orgs/{organization}/deployment/patterns/{pattern}/search',
      postPatternNodeHealth: '/v1/orgs/{organization}/deployment/patterns/{pattern}/nodehealth',
    },
  ),
});
