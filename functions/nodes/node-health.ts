import { endpoint } from '#functions/endpoint';
import { authorizeSearch } from '#functions/node-search/access';
import { heartbeatSince, nodeHealth } from '#functions/node-search/rules';
import { json } from '#lib/http/responses';
import { searchNodes } from '#tables/node/search';
import { nodesRoutes } from './routes.ts';

/**
 * POST /v1/orgs/{organization}/search/nodehealth: the org's nodes with no pattern (policy nodes)
 * that heartbeated since `lastTime` ("" = ever), with their agreements' times. Org admins, agbots
 * of the org, multi-tenant agbots, root. 201, or 404 `{nodes:{}}`. One gsi2 Query per org.
 */
export const handler = endpoint(nodesRoutes.operations.postNodeHealthSearch, {
  authorize: ({ caller, path }) => authorizeSearch(caller, path.organization),
  async handle({ path, body }) {
    const keep = heartbeatSince(body.lastTime);
    const orgs = [...new Set(body.nodeOrgids ?? [path.organization])];
    const pages = await Promise.all(orgs.map((org) => searchNodes(org, '', { keep })));
    const found = pages.flatMap((page) => page.nodes);
    return json(found.length > 0 ? 201 : 404, nodeHealth(found));
  },
});
