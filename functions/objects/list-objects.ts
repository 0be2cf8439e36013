import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { listObjects } from '#tables/object/records';
import { objectsRoutes } from './routes.ts';
import { readsOrg } from './shared/access.ts';
import { metaView } from './shared/view.ts';

/**
 * GET /v1/css/api/v1/objects/{organization}[?filters=true&objectType=&objectID=]: the metadata of the
 * org's objects a caller may read (another org's caller: the public ones), by type then id, or with
 * `list_object_type=true` their distinct types. None: 404 with `[]`.
 */
export const handler = endpoint(objectsRoutes.operations.listObjects, {
  async handle({ caller, path, query }) {
    const all = await listObjects(path.organization, query.objectType || undefined);
    const found = all.filter(
      (o) =>
        (readsOrg(caller, path.organization) || o.public) &&
        (!query.objectID || o.id === query.objectID) &&
        (query.public === undefined || o.public === (query.public === 'true')),
    );
    const answer =
      query.list_object_type === 'true' ? [...new Set(found.map((o) => o.type))] : found.map(metaView);
    return json(found.length > 0 ? 200 : 404, answer);
  },
});
