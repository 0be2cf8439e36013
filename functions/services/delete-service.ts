import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { deleteServiceCascade } from '#tables/service/cascade';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/services/{service}: owner, org admins, root. Deletes its policy,
 * keys and dockauths with it and records the change. Patterns and policies that reference it stay.
 */
export const handler = endpoint(servicesRoutes.operations.deleteService, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const deleted = await deleteServiceCascade(path.organization, path.service, { recordChange: true });
    if (!deleted) throw serviceNotFound(path);
    return noContent();
  },
});
