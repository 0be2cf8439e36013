import { endpoint } from '#functions/endpoint';
import { authorizeNode } from '#functions/nodes/access';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listManagementStatuses } from '#tables/node/management-status-records';
import { nodeManagementStatusRoutes } from './routes.ts';
import { statusesView } from './shared/view.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/managementStatus: whoever may read the node. None (or
 * no node) → 404 with the empty map, as upstream's lists do.
 */
export const handler = endpoint(nodeManagementStatusRoutes.operations.getNodeManagementStatuses, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const records = target ? await listManagementStatuses(path.organization, path.node) : [];
    if (records.length === 0) throw emptyList(statusesView([]));
    return json(200, statusesView(records));
  },
});
