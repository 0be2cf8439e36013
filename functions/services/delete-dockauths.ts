import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteDockAuths } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/dockauths: every dockauth; none → 404. */
export const handler = endpoint(servicesRoutes.operations.deleteServiceDockAuths, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteDockAuths(target)))
      throw notFound(`no dockauths for service '${resourceId(path)}' found`);
    return noContent();
  },
});
