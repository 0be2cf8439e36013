import { authorizeServedRead } from '#functions/agbot-patterns/shared/served-access';
import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { matchesAllFilters } from '#lib/like';
import { type AgbotPolicyRecord, listAgbotPolicies } from '#tables/agbot/policy-records';
import { agbotPoliciesRoutes } from './routes.ts';
import { policiesBody } from './shared/policy-view.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/deployment/policies: the owning user or the
 * agbot. Filters are exact, or LIKE with `%`; an empty value matches empty fields. None → 404 `{}`.
 */
export const handler = endpoint(agbotPoliciesRoutes.operations.listAgbotPolicies, {
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path, query }) {
    const keep = matchesAllFilters<AgbotPolicyRecord>(
      [query.deployment_policy, (record) => record.businessPol],
      [query.deployment_policy_organization, (record) => record.businessPolOrgid],
      [query.node_organization, (record) => record.nodeOrgid],
    );
    const records = (await listAgbotPolicies(path.organization, path.agreementbot)).filter(keep);
    const body = policiesBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
