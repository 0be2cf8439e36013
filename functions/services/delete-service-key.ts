import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteServiceKey } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/keys/{keyid}: whoever may write the service. */
export const handler = endpoint(servicesRoutes.operations.deleteServiceKey, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteServiceKey(target, path.keyid)))
      throw notFound(`key '${path.keyid}' for service '${resourceId(path)}' not found`);
    return noContent();
  },
});
