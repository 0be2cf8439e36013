import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { addDockAuth } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/**
 * POST /v1/orgs/{organization}/services/{service}/dockauths: whoever may write the service. An
 * identical dockauth only gets a new lastUpdated; else it is added under the next id.
 */
export const handler = endpoint(servicesRoutes.operations.postServiceDockAuth, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    if (!target) throw serviceNotFound(path);
    const fields = {
      registry: body.registry,
      username: body.username ?? 'token',
      token: body.token,
      lastUpdated: isoTimestamp(deps.clock),
    };
    const added = await addDockAuth(target, fields);
    if (added.result === 'gone') throw serviceNotFound(path);
    return ok(added.result === 'added' ? `dockauth ${added.dockAuthId} added` : 'dockauth resource updated');
  },
});
