import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteDockAuths } from '#tables/service/children';
import { authorizeService, resourceId, serviceNotFound } from './shared/access.ts';
import { servicePath } from './shared/schemas.ts';

/** DELETE /v1/orgs/{organization}/services/{service}/dockauths: every dockauth; none → 404. */
export const handler = endpoint({
  path: servicePath,
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    if (!(await deleteDockAuths(target)))
      throw notFound(`no dockauths for service '${resourceId(path)}' found`);
    return noContent();
  },
});
