import { authorizeServedRead } from '#functions/agbot-patterns/served-access';
import { endpoint } from '#lib/http/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { matchesFilter } from '#lib/like';
import { listAgbotPolicies } from '#tables/agbot-policy-records';
import { policiesBody } from './policy-view.ts';
import { listPoliciesQuery, policiesPath } from './schemas.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies: the owning user or the
 * agbot. Filters are exact, or LIKE with `%`; an empty value matches empty fields. None → 404 `{}`.
 */
export const handler = endpoint({
  path: policiesPath,
  query: listPoliciesQuery,
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path, query }) {
    const records = (await listAgbotPolicies(path.organization, path.agreementbot)).filter(
      (record) =>
        matchesFilter(record.businessPol, query.deployment_policy) &&
        matchesFilter(record.businessPolOrgid, query.deployment_policy_organization) &&
        matchesFilter(record.nodeOrgid, query.node_organization),
    );
    const body = policiesBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
