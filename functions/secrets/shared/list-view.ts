import { endpoint } from '#functions/endpoint';
import type { EndpointRoute } from '#lib/http/endpoint';
import { json } from '#lib/http/responses';
import { inTree, type SecretTree, treePrefix } from '#lib/secrets/names';
import type { SecretSummary } from '#tables/secret/records';
import { listSecrets } from '#tables/secret/records';
import { authorizeSecret } from './access.ts';
import type { ListQuery } from './schemas.ts';

/** A list answer: names (never values), or `{name, lastUpdated}` entries with `?details=true`. */
export const listResponse = (entries: SecretSummary[], query: ListQuery) =>
  json(200, query.details === 'true' ? entries : entries.map((entry) => entry.name));

/** The tree's secrets, named without the tree's prefix (one Query of the org's partition). */
async function treeEntries(org: string, tree: SecretTree): Promise<SecretSummary[]> {
  const prefix = treePrefix(tree);
  const found = await listSecrets(org, prefix);
  return found
    .filter((entry) => inTree(entry.name, tree))
    .map((entry) => ({ name: entry.name.slice(prefix.length), lastUpdated: entry.lastUpdated }));
}

/** A list route's endpoint: `list` authorization on the tree the path names, then its entries. */
export function treeListEndpoint<P extends { organization: string }>(
  route: EndpointRoute<P, ListQuery, undefined>,
  treeOf: (path: P) => SecretTree,
) {
  return endpoint(route, {
    authorize: ({ caller, path }) => authorizeSecret(caller, path.organization, 'list', treeOf(path)),
    async handle({ path, query }) {
      return listResponse(await treeEntries(path.organization, treeOf(path)), query);
    },
  });
}
