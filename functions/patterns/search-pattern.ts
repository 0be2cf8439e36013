import { endpoint } from '#functions/endpoint';
import { askedWithin, authorizePatternSearch } from '#functions/node-search/access';
import { foundNode, isCandidate } from '#functions/node-search/rules';
import { searchableOrgs } from '#functions/node-search/served';
import { badInput } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { searchNodes } from '#tables/node/search';
import { getPattern } from '#tables/pattern/records';
import { patternsRoutes } from './routes.ts';
import { patternId } from './shared/access.ts';

/**
 * POST /v1/orgs/{organization}/patterns/{pattern}/search (docs/exchange-catalog.md#pattern-search): the nodes of
 * `nodeOrgids` (default the pattern's org) registered with this pattern that an agbot may propose
 * `serviceUrl` to: a public key, a heartbeat (within `secondsStale` when > 0), the arch asked, and
 * no agreement for that service with a state. 201, or 404 with no nodes. One gsi2 Query per org.
 */
export const handler = endpoint(patternsRoutes.operations.postPatternSearch, {
  authorize: ({ caller, path }) => authorizePatternSearch(caller, path.organization, path.pattern),
  async handle({ caller, path, body, deps, target }) {
    const stale = body.secondsStale ?? 0;
    if (stale < 0 && body.serviceUrl !== '') throw badInput('bad input');
    const id = patternId(path);
    const pattern = await getPattern(path.organization, path.pattern);
    if (!pattern) throw badInput(`invalid input: pattern '${id}' not found`);
    const inPattern = pattern.services.some(
      (s) => `${s.serviceOrgid}/${s.serviceUrl}` === body.serviceUrl || s.serviceUrl === body.serviceUrl,
    );
    if (!inPattern)
      throw badInput(
        `invalid input: the serviceUrl '${body.serviceUrl}' specified in search body does not exist in pattern '${id}'`,
      );
    const heartbeatSince =
      stale > 0 ? new Date(deps.clock.now().getTime() - stale * 1000).toISOString() : undefined;
    const rule = { arch: body.arch, serviceUrl: body.serviceUrl, heartbeatSince };
    const orgs = await searchableOrgs(
      caller,
      'pattern',
      path.organization,
      path.pattern,
      askedWithin(body.nodeOrgids ?? [path.organization], target),
    );
    const pages = await Promise.all(
      [...new Set(orgs)].map((org) => searchNodes(org, id, { keep: (node) => isCandidate(node, rule) })),
    );
    const nodes = pages.flatMap((page) => page.nodes.map(foundNode));
    return json(nodes.length > 0 ? 201 : 404, { nodes, lastIndex: 0 });
  },
});
