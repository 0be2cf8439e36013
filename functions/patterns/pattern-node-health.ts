import { endpoint } from '#functions/endpoint';
import { askedWithin, authorizePatternSearch } from '#functions/node-search/access';
import { heartbeatSince, nodeHealth } from '#functions/node-search/rules';
import { json } from '#lib/http/responses';
import { searchNodes } from '#tables/node/search';
import { patternsRoutes } from './routes.ts';
import { patternId } from './shared/access.ts';

/**
 * POST /v1/orgs/{organization}/patterns/{pattern}/nodehealth (docs/exchange-catalog.md#pattern-node-health): the nodes of
 * `nodeOrgids` (default the org) registered with this pattern that heartbeated since `lastTime`
 * ("" = ever), with their agreements' times. The pattern need not exist. 201, or 404 `{nodes:{}}`.
 */
export const handler = endpoint(patternsRoutes.operations.postPatternNodeHealth, {
  authorize: ({ caller, path }) => authorizePatternSearch(caller, path.organization, path.pattern),
  async handle({ path, body, target }) {
    const keep = heartbeatSince(body.lastTime);
    const orgs = [...new Set(askedWithin(body.nodeOrgids ?? [path.organization], target))];
    const pages = await Promise.all(orgs.map((org) => searchNodes(org, patternId(path), { keep })));
    const found = pages.flatMap((page) => page.nodes);
    return json(found.length > 0 ? 201 : 404, nodeHealth(found));
  },
});
