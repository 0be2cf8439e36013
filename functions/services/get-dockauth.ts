import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getDockAuth } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import { dockAuthView } from './shared/dockauth-view.ts';

/** GET /v1/orgs/{organization}/services/{service}/dockauths/{dockauthid}: token masked. */
export const handler = endpoint(servicesRoutes.operations.getServiceDockAuth, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const auth = await getDockAuth(target, path.dockauthid);
    if (!auth) throw notFound(`dockauth ${path.dockauthid} for service '${resourceId(path)}' not found`);
    return json(200, dockAuthView(auth));
  },
});
