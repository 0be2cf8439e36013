import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { matchesAllFilters } from '#lib/like';
import { listManagementPolicies, type ManagementPolicyRecord } from '#tables/management-policy/records';
import { managementPoliciesRoutes } from './routes.ts';
import { authorizePolicyAccess } from './shared/access.ts';
import { policiesBody } from './shared/view.ts';

/**
 * GET /v1/orgs/{organization}/managementpolicies: users, nodes and agbots of the org, multi-tenant
 * agbots, root. Filters `idfilter` (`org/name`), `owner`, `label`, `description`, `manifest`:
 * exact, or LIKE with `%`. Sorted by name; none: 404 with the empty map.
 */
export const handler = endpoint(managementPoliciesRoutes.operations.getManagementPolicies, {
  authorize: ({ caller, path }) =>
    authorizePolicyAccess(caller, path.organization, '*', 'READ', undefined, true),
  async handle({ path, query }) {
    const matches = matchesAllFilters<ManagementPolicyRecord>(
      [query.idfilter, (p) => `${p.org}/${p.name}`],
      [query.owner, (p) => p.owner],
      [query.label, (p) => p.label],
      [query.description, (p) => p.description],
      [query.manifest, (p) => p.manifest],
    );
    const found = (await listManagementPolicies(path.organization)).filter(matches);
    return json(found.length > 0 ? 200 : 404, policiesBody(found));
  },
});
