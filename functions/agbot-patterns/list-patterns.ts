import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { matchesAllFilters } from '#lib/like';
import { type AgbotPatternRecord, listAgbotPatterns } from '#tables/agbot/pattern-records';
import { agbotPatternsRoutes } from './routes.ts';
import { patternsBody } from './shared/pattern-view.ts';
import { authorizeServedRead } from './shared/served-access.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns: the owning user or the
 * agbot. Filters are exact, or LIKE with `%`; an empty value matches empty fields. None → 404 `{}`.
 */
export const handler = endpoint(agbotPatternsRoutes.operations.listAgbotPatterns, {
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path, query }) {
    const keep = matchesAllFilters<AgbotPatternRecord>(
      [query.deployment_pattern, (record) => record.pattern],
      [query.deployment_pattern_organization, (record) => record.patternOrgid],
      [query.node_organization, (record) => record.nodeOrgid],
    );
    const records = (await listAgbotPatterns(path.organization, path.agreementbot)).filter(keep);
    const body = patternsBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
