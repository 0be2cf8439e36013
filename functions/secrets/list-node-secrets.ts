import { secretsRoutes } from './routes.ts';
import { treeListEndpoint } from './shared/list-view.ts';

/** GET /v1/orgs/{organization}/secrets/node/{node}: the node's org secrets, prefix removed. */
export const handler = treeListEndpoint(secretsRoutes.operations.listNodeSecrets, (path) => ({
  kind: 'orgNode',
  node: path.node,
}));
