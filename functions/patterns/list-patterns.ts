import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { listOrgPatterns } from '#tables/pattern/records';
import { patternsRoutes } from './routes.ts';
import { authorizePatternAccess, canSeePattern } from './shared/access.ts';
import { patternListFilter } from './shared/list-filters.ts';
import { patternsBody } from './shared/pattern-view.ts';

/**
 * GET /v1/orgs/{organization}/patterns: everyone but hub admins (the list counts as public). Org
 * admins and users of another org see its public patterns only (docs/exchange-catalog.md#pattern-visibility). None: 404 with the empty map.
 */
export const handler = endpoint(patternsRoutes.operations.getPatterns, {
  authorize: ({ caller, path }) =>
    authorizePatternAccess(caller, path.organization, '*', 'READ', { collection: true }),
  async handle({ caller, path, query }) {
    const filter = patternListFilter(query);
    const found = (await listOrgPatterns(path.organization)).filter(
      (p) => canSeePattern(caller, p) && filter(p),
    );
    return json(found.length > 0 ? 200 : 404, patternsBody(found));
  },
});
