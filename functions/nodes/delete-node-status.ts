import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteNodeStatus } from '#tables/node/report-records';
import { authorizeNode, resourceId } from './access.ts';
import { nodesRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/status: whoever may write the node; records the deletion; 204. */
export const handler = endpoint(nodesRoutes.operations.deleteNodeStatus, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteNodeStatus(path.organization, path.node))) {
      throw notFound(`status for node '${resourceId(path)}' not found`);
    }
    return noContent();
  },
});
