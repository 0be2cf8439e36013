import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { managementPolicyProblem } from '#lib/nmp/policy-body';
import { nmpTimestamp } from '#lib/nmp/timestamp';
import { replaceManagementPolicy } from '#tables/management-policy/records';
import { managementPoliciesRoutes } from './routes.ts';
import { authorizePolicy, policyNotFound } from './shared/access.ts';
import { storedPolicy } from './shared/view.ts';

/**
 * PUT /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}: org admins and root. Update only:
 * a missing policy is 404 (upstream answers 201 and changes nothing). Checks as POST; the owner and
 * `created` are kept (upstream overwrites both; docs/compatibility.md).
 */
export const handler = endpoint(managementPoliciesRoutes.operations.putManagementPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ path, body, deps, target }) {
    if (!target) throw policyNotFound(path);
    const problem = managementPolicyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const times = { created: target.created, lastUpdated: nmpTimestamp(deps.clock.now()) };
    const record = storedPolicy(path.organization, path.mgmtpolicy, target.owner, body, times);
    if (!(await replaceManagementPolicy(record))) throw policyNotFound(path);
    return ok('management policy updated');
  },
});
