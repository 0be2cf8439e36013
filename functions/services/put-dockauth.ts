import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { replaceDockAuth } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/** PUT /v1/orgs/{organization}/services/{service}/dockauths/{dockauthid}: replaces an existing one. */
export const handler = endpoint(servicesRoutes.operations.putServiceDockAuth, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'WRITE'),
  async handle({ path, body, target, deps }) {
    if (!target) throw serviceNotFound(path);
    const replaced = await replaceDockAuth(target, {
      dockAuthId: path.dockauthid,
      registry: body.registry,
      username: body.username ?? 'token',
      token: body.token,
      lastUpdated: isoTimestamp(deps.clock),
    });
    if (!replaced) throw notFound(`dockauth ${path.dockauthid} not found`);
    return ok(`dockauth ${path.dockauthid} updated`);
  },
});
