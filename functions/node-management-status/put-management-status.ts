import { endpoint } from '#functions/endpoint';
import { authorizeNode, nodeNotFound, resourceId } from '#functions/nodes/access';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putManagementStatus } from '#tables/node/management-status-records';
import { nodeManagementStatusRoutes } from './routes.ts';
import { policyKey, storedStatus } from './shared/view.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}: whoever may write the
 * node (its owner, org admins, root, the node itself). Creates or replaces the status. Management
 * policies are not stored by this Exchange yet, so any policy name is accepted (upstream: it must
 * exist).
 */
export const handler = endpoint(nodeManagementStatusRoutes.operations.putNodeManagementStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    if (!target) throw nodeNotFound(path);
    const stored = await putManagementStatus(storedStatus(path, body, isoTimestamp(deps.clock)));
    if (!stored) throw nodeNotFound(path);
    return ok(
      `status added or updated for management policy '${policyKey(path)}' for node '${resourceId(path)}'.`,
    );
  },
});
