import { endpoint } from '#functions/endpoint';
import { authorizeNode } from '#functions/nodes/access';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getManagementStatus } from '#tables/node/management-status-records';
import { nodeManagementStatusRoutes } from './routes.ts';
import { policyKey, statusesView } from './shared/view.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}: the one status, same shape as the list. */
export const handler = endpoint(nodeManagementStatusRoutes.operations.getNodeManagementStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const record = target && (await getManagementStatus(path.organization, path.node, policyKey(path)));
    if (!record) throw emptyList(statusesView([]));
    return json(200, statusesView([record]));
  },
});
