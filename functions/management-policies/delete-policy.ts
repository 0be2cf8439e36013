import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteManagementPolicy } from '#tables/management-policy/delete';
import { managementPoliciesRoutes } from './routes.ts';
import { authorizePolicy, policyNotFound } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/managementpolicies/{mgmtpolicy}: org admins and root; 204 with
 * every node status for the policy gone (upstream's foreign key cascade), or 404 when missing.
 */
export const handler = endpoint(managementPoliciesRoutes.operations.deleteManagementPolicy, {
  authorize: ({ caller, path }) => authorizePolicy(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteManagementPolicy(path.organization, path.mgmtpolicy)))
      throw policyNotFound(path);
    return noContent();
  },
});
