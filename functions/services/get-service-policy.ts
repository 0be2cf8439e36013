import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getServicePolicy } from '#tables/service/children';
import { servicesRoutes } from './routes.ts';
import { authorizeService, serviceNotFound } from './shared/access.ts';

/** GET /v1/orgs/{organization}/services/{service}/policy: whoever may read the service (no row filter). */
export const handler = endpoint(servicesRoutes.operations.getServicePolicy, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  async handle({ path, target }) {
    if (!target) throw serviceNotFound(path);
    const policy = await getServicePolicy(target);
    if (!policy) throw notFound('not found');
    const { label, description, properties, constraints, lastUpdated } = policy;
    return json(200, { label, description, properties, constraints, lastUpdated });
  },
});
