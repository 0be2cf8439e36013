import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { accessDenied, badInput, HttpError, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { createDeploymentPolicy } from '#tables/deployment-policy/records';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicyAccess, policyId } from './shared/access.ts';
import { storedPolicy } from './shared/policy-view.ts';
import { missingReference, policyBodyProblem } from './shared/rules.ts';

/**
 * POST /v1/orgs/{organization}/business/policies/{policy} (and .../deployment/policies/...): users
 * and admins of the org, root. Validates in upstream's order (docs/exchange-catalog.md#policy-body), then creates the policy owned
 * by the caller with its change row; a duplicate is 403 already-exists.
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.postBusinessPolicy, {
  authorize: ({ caller, path }) =>
    authorizePolicyAccess(caller, path.organization, path.policy, 'CREATE', undefined),
  async handle({ caller, path, body, deps }) {
    const problem = policyBodyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const id = policyId(path);
    const missing = await missingReference(body.service, body.userInput ?? []);
    if (missing) throw badInput(`business policy '${id}' not created: ${missing}`);
    const refused = `business policy '${id}' not created`;
    await checkSecretBindings(caller, caller.fullId, path.organization, body.secretBinding, refused);
    const now = isoTimestamp(deps.clock);
    const record = storedPolicy(path.organization, path.policy, caller.fullId, body, {
      created: now,
      lastUpdated: now,
    });
    const maxOwned = deps.config().limits.maxDeploymentPolicies;
    const outcome = await createDeploymentPolicy(record, maxOwned);
    if (outcome === 'over-limit')
      throw accessDenied(`Access Denied: you are over the limit of ${maxOwned} business policies`);
    if (outcome === 'exists')
      throw new HttpError(403, 'already-exists', `business policy '${id}' already exists`);
    if (outcome === 'no-org') throw notFound(`org '${path.organization}' not found`);
    return ok(`business policy '${id}' created`);
  },
});
