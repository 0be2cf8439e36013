import { errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { deploymentsQuery, deploymentsResponse } from './shared/deployment-schemas.ts';
import {
  assetPath,
  consoleNodePath,
  consoleOrgPath,
  fleetSummaryQuery,
  fleetSummaryResponse,
  nodeChangesQuery,
  nodeChangesResponse,
  nodeSummariesQuery,
  nodeSummariesResponse,
  whoAmIResponse,
} from './shared/schemas.ts';

const nodeReaders =
  'Org admins, root and agbots of the org see every node; a plain user only their own nodes; nodes and hub admins 403.';

/**
 * The web console (docs/console.md), our extension: its page and assets, served from the API's own
 * origin, and the compact answers it is built on (who am I; a page of node summaries; the fleet in
 * numbers), none of which answers with every node.
 */
export const consoleRoutes = routeList({
  folder: 'console',
  // One mount: the stack stays under its 200-resource ceiling (test/stack/template.test.ts).
  mounts: ['/v1/console/{proxy+}'],
  tag: 'console',
  description: 'The web console and the summaries it reads (our extension)',
  components: {
    WhoAmI: whoAmIResponse,
    NodeSummaries: nodeSummariesResponse,
    FleetSummary: fleetSummaryResponse,
    NodeChanges: nodeChangesResponse,
    Deployments: deploymentsResponse,
  },
  routes: [
    {
      method: 'GET',
      path: '/v1/console/whoami',
      operationId: 'getWhoAmI',
      handler: () => import('./get-whoami.ts'),
      summary: 'The caller: identity, role and what the console may offer it',
      description:
        'Any valid credentials. Our extension (upstream users asked for it, exchange-api#787): the page shows only the actions `can` allows; each route still authorizes every request.',
      responses: { 200: { description: 'the caller', schema: whoAmIResponse }, ...errors(401) },
    },
    {
      method: 'GET',
      path: '/v1/console/orgs/{organization}/nodes',
      operationId: 'listNodeSummaries',
      handler: () => import('./list-node-summaries.ts'),
      summary: 'A page of node summaries: state, last seen, agreements, errors',
      description: `${nodeReaders} In node id order, \`limit\` (default 100, at most 500) a page; \`next\` is the cursor for \`after\`. State is computed from the last heartbeat against the node's heartbeat intervals and its signal connection (docs/console.md#node-states). At most 2,000 node records are read per page, so a filtered page may be short and still have a \`next\`.`,
      request: { path: consoleOrgPath, query: nodeSummariesQuery },
      responses: {
        200: { description: 'the page (possibly empty)', schema: nodeSummariesResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'GET',
      path: '/v1/console/orgs/{organization}/fleet',
      operationId: 'getFleetSummary',
      handler: () => import('./get-fleet-summary.ts'),
      summary: 'The fleet in numbers: nodes by state, arch, version, pattern; last seen; errors',
      description: `${nodeReaders} Counts only (and the first 20 nodes with errors), never the node list. Computed at most every 30 s per org and owner and kept (in memory and in the table); \`maxAge\` (seconds, default 30, at most 86400) accepts an older one, whose \`at\` says when it was computed.`,
      request: { path: consoleOrgPath, query: fleetSummaryQuery },
      responses: {
        200: { description: 'the summary', schema: fleetSummaryResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'GET',
      path: '/v1/console/orgs/{organization}/nodes/{node}/changes',
      operationId: 'listNodeChanges',
      handler: () => import('./list-node-changes.ts'),
      summary: "A node's recent changes: its own rows of the change feed, newest first",
      description:
        "Whoever may read the node (GET /v1/orgs/{organization}/nodes/{node}): its owner, org admins, root, the node itself, agbots of the org; others 403, an absent node 404. `limit` (default 20, at most 100) rows: one Query of the node's own index partition, whatever the size of the org's feed.",
      request: { path: consoleNodePath, query: nodeChangesQuery },
      responses: {
        200: { description: 'the changes (possibly none)', schema: nodeChangesResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'GET',
      path: '/v1/console/orgs/{organization}/deployments',
      operationId: 'listDeployments',
      handler: () => import('./list-deployments.ts'),
      summary: 'Every deployment policy and pattern with its counts, skipped nodes and rollout, paged',
      description:
        "Users of the org, hub admins, root (nodes, agbots, other orgs' users: 403), as the agbot status. Policies by name, then patterns by name; `limit` (default 50, at most 100) rows a page, `next` the cursor for `after`. Counts from the in-stack agbot's statuses and live agreements (a pattern sums its services).",
      request: { path: consoleOrgPath, query: deploymentsQuery },
      responses: {
        200: { description: 'the page (possibly empty)', schema: deploymentsResponse },
        ...errors(400, 401, 403),
      },
    },
    {
      method: 'GET',
      path: '/v1/console/index.html',
      operationId: 'getConsolePage',
      handler: () => import('./get-page.ts'),
      summary: 'The web console',
      description:
        'Anonymous: the page signs in itself, with Basic credentials kept in the tab. Short cache, a strict Content-Security-Policy.',
      anonymous: true,
      responses: { 200: { description: 'the page', text: 'text/html' }, ...errors(404) },
    },
    {
      method: 'GET',
      path: '/v1/console/assets/{asset}',
      operationId: 'getConsoleAsset',
      handler: () => import('./get-asset.ts'),
      summary: "One of the console's assets (hashed name, cached for a year)",
      description: 'Anonymous. Unknown names 404.',
      anonymous: true,
      request: { path: assetPath },
      responses: {
        200: { description: 'the asset', text: 'text/javascript' },
        ...errors(400, 404),
      },
    },
  ],
});
