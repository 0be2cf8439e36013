import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { PATCHABLE, patchDeploymentPolicy } from '#tables/deployment-policy/records';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicy, policyId, policyNotFound } from './shared/access.ts';
import { storedPolicyService } from './shared/policy-view.ts';
import { missingReference, policyBodyProblem } from './shared/rules.ts';

/**
 * PATCH /v1/orgs/{organization}/business/policies/{policy}: as PUT. Applies the first attribute
 * present in upstream's order (constraints, description, label, properties, secretBinding,
 * service, userInput); `{}` → 400. A service or userInput must reference services that exist.
 */
export const handler = endpoint(deploymentPoliciesRoutes.operations.patchBusinessPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ caller, path, body, deps, target }) {
    const attribute = PATCHABLE.find((name) => body[name] !== undefined && body[name] !== null);
    if (!attribute) throw badInput('no valid business policy attribute specified');
    if (!target) throw policyNotFound(path);
    const problem = policyBodyProblem({ [attribute]: body[attribute] }) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const service = attribute === 'service' ? (body.service ?? undefined) : undefined;
    const missing = await missingReference(service, attribute === 'userInput' ? (body.userInput ?? []) : []);
    if (missing) throw badInput(`business policy '${policyId(path)}' not updated: ${missing}`);
    if (attribute === 'secretBinding') {
      const refused = `business policy '${policyId(path)}' not updated`;
      await checkSecretBindings(caller, target.owner, path.organization, body.secretBinding, refused);
    }
    const value = service ? storedPolicyService(service, false) : body[attribute];
    if (
      !(await patchDeploymentPolicy(
        path.organization,
        path.policy,
        attribute,
        value,
        isoTimestamp(deps.clock),
      ))
    )
      throw policyNotFound(path);
    return ok(`attribute '${attribute}' of business policy '${policyId(path)}' updated`);
  },
});
