import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { agentUpgradePolicyStatus, getManagementStatusResponse } from './shared/responses.ts';
import {
  getManagementStatusQuery,
  nodeStatusesPath,
  nodeStatusPath,
  putManagementStatusBody,
} from './shared/schemas.ts';

const readers = 'Whoever may read the node: its owner, org admins, root, the node itself, agbots of the org.';
const writers = 'Whoever may write the node: its owner, org admins, root, the node itself.';

/** Node management status (docs/exchange.md#management-status). */
export const nodeManagementStatusRoutes = routeList({
  folder: 'node-management-status',
  mounts: [
    '/v1/orgs/{organization}/nodes/{node}/managementStatus',
    '/v1/orgs/{organization}/nodes/{node}/managementStatus/{proxy+}',
  ],
  tag: 'node management status',
  description: 'How a node is doing with each node management (agent upgrade) policy',
  components: {
    GetManagementStatusResponse: getManagementStatusResponse,
    AgentUpgradePolicyStatus: agentUpgradePolicyStatus,
  },
  requests: { ManagementStatusRequest: putManagementStatusBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/managementStatus',
      operationId: 'getNodeManagementStatuses',
      handler: () => import('./get-management-statuses.ts'),
      summary: 'Every management status of a node',
      description: readers,
      request: { path: nodeStatusesPath, query: getManagementStatusQuery },
      responses: {
        200: { description: 'statuses by `org/policy`', schema: getManagementStatusResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getManagementStatusResponse),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
      operationId: 'getNodeManagementStatus',
      handler: () => import('./get-management-status.ts'),
      summary: 'The status of a node for one management policy',
      description: readers,
      request: { path: nodeStatusPath, query: getManagementStatusQuery },
      responses: {
        200: { description: 'the status, keyed as in the list', schema: getManagementStatusResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getManagementStatusResponse),
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
      operationId: 'putNodeManagementStatus',
      handler: () => import('./put-management-status.ts'),
      summary: 'Create or replace the status of a node for one management policy',
      description: `${writers} The management policy must exist in the node's org (else 404).`,
      request: { path: nodeStatusPath, body: putManagementStatusBody },
      responses: { 201: okResponse('stored'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}/managementStatus/{mgmtpolicy}',
      operationId: 'deleteNodeManagementStatus',
      handler: () => import('./delete-management-status.ts'),
      summary: 'Delete the status of a node for one management policy',
      description: writers,
      request: { path: nodeStatusPath },
      responses: { 204: { description: 'deleted' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
