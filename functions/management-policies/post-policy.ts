import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { accessDenied, badInput, HttpError, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { managementPolicyProblem } from '#lib/nmp/policy-body';
import { nmpTimestamp } from '#lib/nmp/timestamp';
import { createManagementPolicy } from '#tables/management-policy/records';
import { managementPoliciesRoutes } from './routes.ts';
import { authorizePolicyAccess, policyId } from './shared/access.ts';
import { storedPolicy } from './shared/view.ts';

/**
 * POST /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}: org admins and root. Validates
 * (lib/nmp/policy-body.ts), then creates the policy owned by the caller with its change row; a
 * duplicate is 403 already-exists, which `hzn exchange nmp add` answers with a PUT.
 */
export const handler = endpoint(managementPoliciesRoutes.operations.postManagementPolicy, {
  authorize: ({ caller, path }) =>
    authorizePolicyAccess(caller, path.organization, path.mgmtpolicy, 'CREATE', undefined),
  async handle({ caller, path, body, deps }) {
    const problem = managementPolicyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const id = policyId(path);
    const now = nmpTimestamp(deps.clock.now());
    const record = storedPolicy(path.organization, path.mgmtpolicy, caller.fullId, body, {
      created: now,
      lastUpdated: now,
    });
    const maxOwned = deps.config().limits.maxManagementPolicies;
    const outcome = await createManagementPolicy(record, maxOwned);
    if (outcome === 'over-limit')
      throw accessDenied(`Access Denied: you are over the limit of ${maxOwned} management policies`);
    if (outcome === 'exists')
      throw new HttpError(403, 'already-exists', `management policy '${id}' already exists`);
    if (outcome === 'no-org') throw notFound(`org '${path.organization}' not found`);
    return ok(`management policy '${id}' created`);
  },
});
