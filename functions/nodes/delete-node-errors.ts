import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteNodeErrors } from '#tables/node/report-records';
import { authorizeNode, nodeNotFound } from './access.ts';
import { nodesRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/nodes/{node}/errors: whoever may write the node; none → 404 "node … not found", as upstream. */
export const handler = endpoint(nodesRoutes.operations.deleteNodeErrors, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteNodeErrors(path.organization, path.node))) throw nodeNotFound(path);
    return noContent();
  },
});
