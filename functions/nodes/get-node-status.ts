import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getNodeStatus } from '#tables/node/report-records';
import { authorizeNode, readsNodeWithoutRecord } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { nodeStatusView } from './status-view.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/status: whoever may read the node; none → 404. The node
 * itself and the agbots serving its org (the agbot's governance reads it for each agreement) read
 * only the status: one GetItem.
 */
export const handler = endpoint(nodesRoutes.operations.getNodeStatus, {
  authorize: async ({ caller, path }) => ({
    nodeExists: readsNodeWithoutRecord(caller, path)
      ? undefined
      : (await authorizeNode(caller, path, 'READ')) !== undefined,
  }),
  async handle({ path, target }) {
    const status = target.nodeExists !== false && (await getNodeStatus(path.organization, path.node));
    if (!status) throw notFound('not found');
    return json(200, nodeStatusView(status));
  },
});
