import { endpoint } from '#functions/endpoint';
import { authorizeNode, nodeNotFound, resourceId } from '#functions/nodes/access';
import { notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putManagementStatus } from '#tables/node/management-status-records';
import { nodeManagementStatusRoutes } from './routes.ts';
import { policyKey, storedStatus } from './shared/view.ts';

/**
 * PUT /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}: whoever may write the
 * node (its owner, org admins, root, the node itself). Creates or replaces the status of a
 * management policy of the node's org; a policy that does not exist (or is being deleted) is a 404
 * (upstream: a foreign key failure, answered 500).
 */
export const handler = endpoint(nodeManagementStatusRoutes.operations.putNodeManagementStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    if (!target) throw nodeNotFound(path);
    const outcome = await putManagementStatus(storedStatus(path, body, isoTimestamp(deps.clock)));
    if (outcome === 'no-node') throw nodeNotFound(path);
    if (outcome === 'no-policy') throw notFound(`management policy '${policyKey(path)}' not found`);
    return ok(
      `status added or updated for management policy '${policyKey(path)}' for node '${resourceId(path)}'.`,
    );
  },
});
