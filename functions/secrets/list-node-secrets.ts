import { endpoint } from '#lib/http/endpoint';
import { authorizeSecret } from './access.ts';
import { listResponse, treeEntries } from './list-view.ts';
import { listQuery, nodeTreePath } from './schemas.ts';

/** GET /v1/orgs/{organization}/secrets/node/{node}: the node's org secrets, prefix removed. */
export const handler = endpoint({
  path: nodeTreePath,
  query: listQuery,
  authorize: ({ caller, path }) =>
    authorizeSecret(caller, path.organization, 'list', { kind: 'orgNode' as const, node: path.node }),
  async handle({ path, query }) {
    return listResponse(
      await treeEntries(path.organization, { kind: 'orgNode' as const, node: path.node }),
      query,
    );
  },
});
