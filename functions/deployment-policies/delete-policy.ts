import { endpoint } from '#lib/http/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteDeploymentPolicy } from '#tables/deployment-policy/records';
import { authorizePolicy, policyNotFound } from './access.ts';
import { policyPath } from './schemas.ts';

/** DELETE /v1/orgs/{organization}/business/policies/{policy}: as PUT; 204, or 404 when missing. */
export const handler = endpoint({
  path: policyPath,
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteDeploymentPolicy(target))) throw policyNotFound(path);
    return noContent();
  },
});
