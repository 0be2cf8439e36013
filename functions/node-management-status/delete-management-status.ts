import { endpoint } from '#functions/endpoint';
import { authorizeNode, resourceId } from '#functions/nodes/access';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteManagementStatus } from '#tables/node/management-status-records';
import { nodeManagementStatusRoutes } from './routes.ts';
import { policyKey } from './shared/view.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}: whoever may write the node. */
export const handler = endpoint(nodeManagementStatusRoutes.operations.deleteNodeManagementStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, target }) {
    const deleted =
      target !== undefined && (await deleteManagementStatus(path.organization, path.node, policyKey(path)));
    if (!deleted) {
      throw notFound(
        `status for management policy '${policyKey(path)}' for node '${resourceId(path)}' not found`,
      );
    }
    return noContent();
  },
});
