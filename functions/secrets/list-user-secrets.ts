import { endpoint } from '#lib/http/endpoint';
import { authorizeSecret } from './access.ts';
import { listResponse, treeEntries } from './list-view.ts';
import { listQuery, userTreePath } from './schemas.ts';

/** GET /v1/orgs/{organization}/secrets/user/{user}: the user's secrets (not its node ones), prefix removed. */
export const handler = endpoint({
  path: userTreePath,
  query: listQuery,
  authorize: ({ caller, path }) =>
    authorizeSecret(caller, path.organization, 'list', { kind: 'user' as const, user: path.user }),
  async handle({ path, query }) {
    return listResponse(
      await treeEntries(path.organization, { kind: 'user' as const, user: path.user }),
      query,
    );
  },
});
