import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteServicePolicy } from '#tables/service/children';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import { servicePath } from './shared/schemas.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/policy: whoever may write the service. */
export const handler = endpoint({
  path: servicePath,
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteServicePolicy(target)))
      throw notFound(`policy for service '${resourceId(path)}' not found`);
    return noContent();
  },
});
