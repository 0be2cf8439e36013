import { endpoint } from '#lib/http/endpoint';
import { authorizeSecret } from './access.ts';
import { listResponse, treeEntries } from './list-view.ts';
import { listQuery, orgPath } from './schemas.ts';

/** GET /v1/orgs/{organization}/secrets: the org's secret names, without the `user/` and `node/` trees. */
export const handler = endpoint({
  path: orgPath,
  query: listQuery,
  authorize: ({ caller, path }) =>
    authorizeSecret(caller, path.organization, 'list', { kind: 'org' as const }),
  async handle({ path, query }) {
    return listResponse(await treeEntries(path.organization, { kind: 'org' as const }), query);
  },
});
