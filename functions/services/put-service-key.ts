import { keyFromBody } from '#functions/catalog/shared/key-body';
import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putServiceKey } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/**
 * PUT /v1/orgs/{organization}/services/{service}/keys/{keyid}: whoever may write the service. The
 * body is the key or certificate itself (any content type, as upstream), stored verbatim.
 */
export const handler = endpoint(servicesRoutes.operations.putServiceKey, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target, event, deps }) {
    const key = keyFromBody(event);
    if (!target) throw serviceNotFound(path);
    if (!(await putServiceKey(target, path.keyid, key, isoTimestamp(deps.clock))))
      throw serviceNotFound(path);
    return ok('key added or updated');
  },
});
