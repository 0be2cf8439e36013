import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteDockAuth } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/dockauths/{dockauthid}: whoever may write the service. */
export const handler = endpoint(servicesRoutes.operations.deleteServiceDockAuth, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteDockAuth(target, path.dockauthid)))
      throw notFound(`dockauths '${path.dockauthid}' for service '${resourceId(path)}' not found`);
    return noContent();
  },
});
