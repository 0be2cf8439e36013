import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { listObjects } from '#tables/object/records';
import { objectsRoutes } from './routes.ts';
import { readsOrg } from './shared/access.ts';
import { metaView } from './shared/view.ts';

/** GET /v1/css/api/v1/objects/{organization}/{objectType}: as the org's list, for one type. */
export const handler = endpoint(objectsRoutes.operations.listTypeObjects, {
  async handle({ caller, path }) {
    const found = (await listObjects(path.organization, path.objectType)).filter(
      (o) => readsOrg(caller, path.organization) || o.public,
    );
    return json(found.length > 0 ? 200 : 404, found.map(metaView));
  },
});
