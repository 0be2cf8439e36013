import { nodeHealthResponse, patternSearchResponse } from '#functions/node-search/responses';
import { nodeHealthBody, patternSearchBody } from '#functions/node-search/schemas';
import { keyIdList } from '#functions/services/shared/responses';
import { keyBodyDoc } from '#functions/services/shared/schemas';
import { aliasRoutes } from '#lib/openapi/alias';
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

const PATTERNS = '/v1/orgs/{organization}/patterns';
const DEPLOYMENT = '/v1/orgs/{organization}/deployment/patterns';
const writers = 'The owner, org admins, root; 404 when missing.';

const patternRoutes = [
  {
    method: 'GET' as const,
    path: PATTERNS,
    operationId: 'getPatterns',
    handler: 'patterns/list-patterns' as const,
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
    method: 'GET' as const,
    path: `${PATTERNS}/{pattern}`,
    operationId: 'getPattern',
    handler: 'patterns/get-pattern' as const,
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
    method: 'POST' as const,
    path: `${PATTERNS}/{pattern}`,
    operationId: 'postPattern',
    handler: 'patterns/post-pattern' as const,
    summary: 'Create a deployment pattern',
    description:
      'Users and admins of the org, root. Every service version and userInput service must exist; `public: true` only in an org of type IBM; ' +
      'an owner at `limits.maxPatterns` gets 403. Duplicate: 403 already-exists.',
    request: { path: patternPath, body: patternBody },
    responses: { 201: okResponse('created'), ...errors(400, 401, 403, 404) },
  },
  {
    method: 'PUT' as const,
    path: `${PATTERNS}/{pattern}`,
    operationId: 'putPattern',
    handler: 'patterns/put-pattern' as const,
    summary: 'Replace a deployment pattern',
    description: `${writers} Checks as POST; the caller becomes the owner.`,
    request: { path: patternPath, body: patternBody },
    responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
  },
  {
    method: 'PATCH' as const,
    path: `${PATTERNS}/{pattern}`,
    operationId: 'patchPattern',
    handler: 'patterns/patch-pattern' as const,
    summary: 'Change one attribute of a deployment pattern',
    description: `${writers} The first present of agreementProtocols, clusterNamespace, description, label, public, secretBinding, services, userInput.`,
    request: { path: patternPath, body: patchPatternBody },
    responses: { 201: okResponse('updated'), ...errors(400, 401, 403, 404) },
  },
  {
    method: 'DELETE' as const,
    path: `${PATTERNS}/{pattern}`,
    operationId: 'deletePattern',
    handler: 'patterns/delete-pattern' as const,
    summary: 'Delete a deployment pattern and its keys',
    description: writers,
    request: { path: patternPath },
    responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'GET' as const,
    path: `${PATTERNS}/{pattern}/keys`,
    operationId: 'getPatternKeys',
    handler: 'patterns/list-pattern-keys' as const,
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
    method: 'DELETE' as const,
    path: `${PATTERNS}/{pattern}/keys`,
    operationId: 'deletePatternKeys',
    handler: 'patterns/delete-pattern-keys' as const,
    summary: 'Delete every key of a pattern',
    description: 'Whoever may write the pattern.',
    request: { path: patternPath },
    responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'GET' as const,
    path: `${PATTERNS}/{pattern}/keys/{keyid}`,
    operationId: 'getPatternKey',
    handler: 'patterns/get-pattern-key' as const,
    summary: 'One key',
    description: 'Whoever may read the pattern. The key as `text/plain`.',
    request: { path: patternKeyPath },
    responses: { 200: { description: 'the key', text: true }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'PUT' as const,
    path: `${PATTERNS}/{pattern}/keys/{keyid}`,
    operationId: 'putPatternKey',
    handler: 'patterns/put-pattern-key' as const,
    summary: 'Store a key',
    description:
      'Whoever may write the pattern. The body is the key or certificate text itself (any content type).',
    request: { path: patternKeyPath, body: keyBodyDoc },
    responses: { 201: okResponse('added or updated'), ...errors(400, 401, 403, 404) },
  },
  {
    method: 'DELETE' as const,
    path: `${PATTERNS}/{pattern}/keys/{keyid}`,
    operationId: 'deletePatternKey',
    handler: 'patterns/delete-pattern-key' as const,
    summary: 'Delete a key',
    description: 'Whoever may write the pattern.',
    request: { path: patternKeyPath },
    responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'POST' as const,
    path: `${PATTERNS}/{pattern}/search`,
    operationId: 'postPatternSearch',
    handler: 'patterns/search-pattern' as const,
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
    method: 'POST' as const,
    path: `${PATTERNS}/{pattern}/nodehealth`,
    operationId: 'postPatternNodeHealth',
    handler: 'patterns/pattern-node-health' as const,
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
];

/** Deployment patterns (docs/exchange-catalog.md#patterns): anax's `/patterns/...` and the documented `/deployment/patterns/...`. */
export const patternsRoutes = routeList({
  folder: 'patterns',
  mounts: [PATTERNS, `${PATTERNS}/{proxy+}`, DEPLOYMENT, `${DEPLOYMENT}/{proxy+}`],
  tag: 'deployment patterns',
  description: 'Deployment patterns: which services every node registered with the pattern runs',
  components: {
    GetPatternsResponse: patternsResponse,
    GetPatternAttributeResponse: patternAttributeResponse,
  },
  requests: { PostPutPatternRequest: patternBody, PatchPatternRequest: patchPatternBody },
  routes: [...patternRoutes, ...aliasRoutes(patternRoutes, PATTERNS, DEPLOYMENT)],
});
