import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteNode } from '#tables/node/records';
import { authorizeNode, CONFLICT, nodeNotFound, writeWithReread } from './access.ts';
import { nodesRoutes } from './routes.ts';

/**
 * DELETE /v1/orgs/{organization}/nodes/{node}: owner, org admins, root, the node itself. Removes
 * the node's partition (node, policy) and uncounts it in one transaction.
 */
export const handler = endpoint(nodesRoutes.operations.deleteNode, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, target }) {
    await writeWithReread(caller, path, target, async (node) => {
      if (!node) throw nodeNotFound(path);
      return (await deleteNode(node)) ? true : CONFLICT;
    });
    return noContent();
  },
});
