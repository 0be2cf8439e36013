import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteDeploymentPolicy } from '#tables/deployment-policy/records';
import { deploymentPoliciesRoutes } from './routes.ts';
import { authorizePolicy, policyNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/business/policies/{policy}: as PUT; 204, or 404 when missing. */
export const handler = endpoint(deploymentPoliciesRoutes.operations.deleteBusinessPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteDeploymentPolicy(target))) throw policyNotFound(path);
    return noContent();
  },
});
