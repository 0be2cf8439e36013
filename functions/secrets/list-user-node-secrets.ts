import { treeListEndpoint } from './shared/list-view.ts';
import { userNodeTreePath } from './shared/schemas.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}/node/{node}: the user's secrets for the node,
 * prefix removed. */
export const handler = treeListEndpoint(userNodeTreePath, (path) => ({
  kind: 'userNode',
  user: path.user,
  node: path.node,
}));
