import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { matchesAllFilters } from '#lib/like';
import { type DeploymentPolicyRecord, listDeploymentPolicies } from '#tables/deployment-policy/records';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicyAccess } from './shared/access.ts';
import { policiesBody } from './shared/policy-view.ts';

/**
 * GET /v1/orgs/{organization}/business/policies: identities of the org, multi-tenant agbots, root
 * (other orgs 403: policies are never public). Filters `idfilter` (full `org/name`), `owner`,
 * `label`, `description`: exact, or LIKE with `%`. None: 404 with the empty map.
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.getBusinessPolicies, {
  authorize: ({ caller, path }) =>
    authorizePolicyAccess(caller, path.organization, '*', 'READ', undefined, true),
  async handle({ path, query }) {
    const matches = matchesAllFilters<DeploymentPolicyRecord>(
      [query.idfilter, (p) => `${p.org}/${p.name}`],
      [query.owner, (p) => p.owner],
      [query.label, (p) => p.label],
      [query.description, (p) => p.description],
    );
    const found = (await listDeploymentPolicies(path.organization)).filter(matches);
    return json(found.length > 0 ? 200 : 404, policiesBody(found));
  },
});
