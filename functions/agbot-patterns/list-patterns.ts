import { endpoint } from '#lib/http/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { matchesFilter } from '#lib/like';
import { listAgbotPatterns } from '#tables/agbot-pattern-records';
import { patternsBody } from './pattern-view.ts';
import { listPatternsQuery, patternsPath } from './schemas.ts';
import { authorizeServedRead } from './served-access.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/deployment/patterns: the owning user or the
 * agbot. Filters are exact, or LIKE with `%`; an empty value matches empty fields. None → 404 `{}`.
 */
export const handler = endpoint({
  path: patternsPath,
  query: listPatternsQuery,
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path, query }) {
    const records = (await listAgbotPatterns(path.organization, path.agreementbot)).filter(
      (record) =>
        matchesFilter(record.pattern, query.deployment_pattern) &&
        matchesFilter(record.patternOrgid, query.deployment_pattern_organization) &&
        matchesFilter(record.nodeOrgid, query.node_organization),
    );
    const body = patternsBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
