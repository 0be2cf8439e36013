import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listServiceKeys } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/** GET /v1/orgs/{organization}/services/{service}/keys: the key ids; none → 404 `[]`. */
export const handler = endpoint(servicesRoutes.operations.listServiceKeys, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const ids = await listServiceKeys(target);
    if (ids.length === 0) throw emptyList([]);
    return json(200, ids);
  },
});
