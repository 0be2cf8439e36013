import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteServiceKeys } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/keys: every key; none → 404. */
export const handler = endpoint(servicesRoutes.operations.deleteServiceKeys, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteServiceKeys(target))) throw notFound(`no keys for service '${resourceId(path)}' found`);
    return noContent();
  },
});
