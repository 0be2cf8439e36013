import { treeListEndpoint } from './shared/list-view.ts';
import { nodeTreePath } from './shared/schemas.ts';

/** GET /v1/orgs/{organization}/secrets/node/{node}: the node's org secrets, prefix removed. */
export const handler = treeListEndpoint(nodeTreePath, (path) => ({ kind: 'orgNode', node: path.node }));
