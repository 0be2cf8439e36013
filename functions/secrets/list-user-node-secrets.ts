import { secretsRoutes } from './routes.ts';
import { treeListEndpoint } from './shared/list-view.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}/node/{node}: the user's secrets for the node,
 * prefix removed. */
export const handler = treeListEndpoint(secretsRoutes.operations.listUserNodeSecrets, (path) => ({
  kind: 'userNode',
  user: path.user,
  node: path.node,
}));
