import { endpoint } from '#lib/http/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listDockAuths } from '#tables/service/children';
import { authorizeService, serviceNotFound } from './access.ts';
import { dockAuthView } from './dockauth-view.ts';
import { servicePath } from './schemas.ts';

/** GET /v1/orgs/{organization}/services/{service}/dockauths: tokens masked; none → 404 `[]`. */
export const handler = endpoint({
  path: servicePath,
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const auths = await listDockAuths(target);
    if (auths.length === 0) throw emptyList([]);
    return json(200, auths.map(dockAuthView));
  },
});
