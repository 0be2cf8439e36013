import { dispatcher } from '#functions/dispatch';
import { handler as deleteNodeManagementStatus } from './delete-management-status.ts';
import { handler as getNodeManagementStatus } from './get-management-status.ts';
import { handler as getNodeManagementStatuses } from './get-management-statuses.ts';
import { handler as putNodeManagementStatus } from './put-management-status.ts';
import { nodeManagementStatusRoutes } from './routes.ts';

/** The node management status family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(nodeManagementStatusRoutes, {
  'node-management-status/get-management-statuses': getNodeManagementStatuses,
  'node-management-status/get-management-status': getNodeManagementStatus,
  'node-management-status/put-management-status': putNodeManagementStatus,
  'node-management-status/delete-management-status': deleteNodeManagementStatus,
});
