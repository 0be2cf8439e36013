import { errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  assetPath,
  consoleOrgPath,
  fleetSummaryQuery,
  fleetSummaryResponse,
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
