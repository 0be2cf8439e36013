import { endpoint } from '#functions/endpoint';
import { canSeePattern } from '#functions/patterns/shared/access';
import { patternListFilter } from '#functions/patterns/shared/list-filters';
import { patternsBody } from '#functions/patterns/shared/pattern-view';
import { IBM_ORG, isHubAdmin, isUserType } from '#lib/auth/caller';
import { accessDenied, emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listOrgs } from '#tables/org/records';
import { listCatalogPatterns } from '#tables/pattern/records';
import { catalogRoutes } from './routes.ts';

/**
 * GET /v1/catalog/patterns (also GET /v1/deployment/patterns): every caller but hub admins (docs/exchange-catalog.md#catalog-of-patterns).
 * Org admins and users see their org's, IBM's and the public patterns; nodes, agbots and root every
 * pattern of every org. Filters `organization`, `idfilter`, `owner`, `label`, `description`,
 * `clusternamespace` (LIKE with `%`), `public`; `orgtype` is ignored, as upstream.
 */
export const handler = endpoint(catalogRoutes.operations.listCatalogPatterns, {
  authorize: ({ caller }) => {
    if (isHubAdmin(caller))
      throw accessDenied(`Access denied: '${caller.fullId}' does not have authorization: READ_ALL_PATTERNS`);
  },
  async handle({ caller, query }) {
    const everything = !isUserType(caller) || caller.kind === 'root';
    const scope = everything
      ? { allOrgs: (await listOrgs()).map((org) => org.org) }
      : { orgs: [caller.org, IBM_ORG] };
    const filter = patternListFilter(query);
    const records = (await listCatalogPatterns(scope)).filter((p) => canSeePattern(caller, p) && filter(p));
    const body = patternsBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
