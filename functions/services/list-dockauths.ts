import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listDockAuths } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';
import { dockAuthView } from './shared/dockauth-view.ts';

/** GET /v1/orgs/{organization}/services/{service}/dockauths: tokens masked; none → 404 `[]`. */
export const handler = endpoint(servicesRoutes.operations.listServiceDockAuths, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const auths = await listDockAuths(target);
    if (auths.length === 0) throw emptyList([]);
    return json(200, auths.map(dockAuthView));
  },
});
