import { endpoint } from '#lib/http/endpoint';
import { authorizeSecret } from './access.ts';
import { listResponse, treeEntries } from './list-view.ts';
import { listQuery, userNodeTreePath } from './schemas.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}/node/{node}: the user's secrets for the node, prefix removed. */
export const handler = endpoint({
  path: userNodeTreePath,
  query: listQuery,
  authorize: ({ caller, path }) =>
    authorizeSecret(caller, path.organization, 'list', {
      kind: 'userNode' as const,
      user: path.user,
      node: path.node,
    }),
  async handle({ path, query }) {
    return listResponse(
      await treeEntries(path.organization, { kind: 'userNode' as const, user: path.user, node: path.node }),
      query,
    );
  },
});
