import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteServiceKeys } from '#tables/service/children';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import { servicePath } from './shared/schemas.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/keys: every key; none → 404. */
export const handler = endpoint({
  path: servicePath,
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteServiceKeys(target))) throw notFound(`no keys for service '${resourceId(path)}' found`);
    return noContent();
  },
});
