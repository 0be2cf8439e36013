import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { replaceDeploymentPolicy } from '#tables/deployment-policy/records';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicy, policyId, policyNotFound } from './shared/access.ts';
import { storedPolicy } from './shared/policy-view.ts';
import { missingReference, policyBodyProblem } from './shared/rules.ts';

/**
 * PUT /v1/orgs/{organization}/business/policies/{policy}: the owner, org admins, root. Update only
 * (missing → 404); every field but `created` and the owner is replaced (docs/exchange-catalog.md#policy-routes).
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.putBusinessPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ caller, path, body, deps, target }) {
    if (!target) throw policyNotFound(path);
    const problem = policyBodyProblem(body) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const missing = await missingReference(body.service, body.userInput ?? []);
    if (missing) throw badInput(`business policy '${policyId(path)}' not updated: ${missing}`);
    const refused = `business policy '${policyId(path)}' not updated`;
    await checkSecretBindings(caller, target.owner, path.organization, body.secretBinding, refused);
    const times = { created: target.created, lastUpdated: isoTimestamp(deps.clock) };
    const record = storedPolicy(path.organization, path.policy, target.owner, body, times);
    if (!(await replaceDeploymentPolicy(record))) throw policyNotFound(path);
    return ok('business policy updated');
  },
});
