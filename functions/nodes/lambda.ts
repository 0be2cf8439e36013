import { dispatcher } from '#functions/dispatch';
import { handler as deleteNode } from './delete-node.ts';
import { handler as deleteNodeErrors } from './delete-node-errors.ts';
import { handler as deleteNodePolicy } from './delete-node-policy.ts';
import { handler as deleteNodeStatus } from './delete-node-status.ts';
import { handler as getNode } from './get-node.ts';
import { handler as getNodeErrors } from './get-node-errors.ts';
import { handler as getNodePolicy } from './get-node-policy.ts';
import { handler as getNodeStatus } from './get-node-status.ts';
import { handler as listNodes } from './list-nodes.ts';
import { handler as nodeHealth } from './node-health.ts';
import { handler as patchNode } from './patch-node.ts';
import { handler as postNodeHeartbeat } from './post-heartbeat.ts';
import { handler as postServicesConfigState } from './post-services-configstate.ts';
import { handler as putNode } from './put-node.ts';
import { handler as putNodeErrors } from './put-node-errors.ts';
import { handler as putNodePolicy } from './put-node-policy.ts';
import { handler as putNodeStatus } from './put-node-status.ts';
import { nodesRoutes } from './routes.ts';

/** The nodes family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(nodesRoutes, {
  'nodes/list-nodes': listNodes,
  'nodes/node-health': nodeHealth,
  'nodes/get-node': getNode,
  'nodes/put-node': putNode,
  'nodes/patch-node': patchNode,
  'nodes/delete-node': deleteNode,
  'nodes/post-heartbeat': postNodeHeartbeat,
  'nodes/get-node-policy': getNodePolicy,
  'nodes/put-node-policy': putNodePolicy,
  'nodes/delete-node-policy': deleteNodePolicy,
  'nodes/get-node-status': getNodeStatus,
  'nodes/put-node-status': putNodeStatus,
  'nodes/delete-node-status': deleteNodeStatus,
  'nodes/get-node-errors': getNodeErrors,
  'nodes/put-node-errors': putNodeErrors,
  'nodes/delete-node-errors': deleteNodeErrors,
  'nodes/post-services-configstate': postServicesConfigState,
});
