import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { text } from '#lib/http/responses';
import { getServiceKey } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';

/** GET /v1/orgs/{organization}/services/{service}/keys/{keyid}: the key as `text/plain`. */
export const handler = endpoint(servicesRoutes.operations.getServiceKey, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const key = await getServiceKey(target, path.keyid);
    if (key === undefined) throw notFound(`key '${path.keyid}' for service '${resourceId(path)}' not found`);
    return text(200, key);
  },
});
