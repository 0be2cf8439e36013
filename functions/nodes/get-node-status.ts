import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getNodeStatus } from '#tables/node/report-records';
import { authorizeNode } from './access.ts';
import { nodesRoutes } from './routes.ts';
import { nodeStatusView } from './status-view.ts';

/** GET /v1/orgs/{organization}/nodes/{node}/status: whoever may read the node; none → 404. */
export const handler = endpoint(nodesRoutes.operations.getNodeStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'READ'),
  async handle({ path, target }) {
    const status = target && (await getNodeStatus(path.organization, path.node));
    if (!status) throw notFound('not found');
    return json(200, nodeStatusView(status));
  },
});
