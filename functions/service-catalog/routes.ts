import { getServicesResponse } from '#functions/services/responses';
import { catalogServicesQuery } from '#functions/services/schemas';
import { emptyListOrError, errors } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';

const description =
  'Every caller but hub admins. Root and multi-tenant agbots see every service of every org; others ' +
  "their own org's, org IBM's, and the public services of any org. Filters `organization`, `owner`, " +
  '`url`, `version`, `arch` (exact, or SQL LIKE with `%`), `public`, `nodetype` (device, cluster), ' +
  '`requiredurl`; `orgtype` is ignored. Nothing found → 404 with the empty map.';

const listResponses = {
  200: { description: 'services by `<org>/<id>`', schema: getServicesResponse },
  ...errors(400, 401, 403),
  404: emptyListOrError(getServicesResponse),
};

/** The service catalog across orgs (catalog reference §2.7). */
export const serviceCatalogRoutes = routeList({
  folder: 'service-catalog',
  mounts: ['/v1/catalog/services', '/v1/services'],
  tag: 'catalog',
  description: 'Services visible to the caller across orgs',
  routes: [
    {
      method: 'GET',
      path: '/v1/catalog/services',
      operationId: 'listCatalogServices',
      handler: 'service-catalog/list-catalog-services',
      summary: 'Services across orgs',
      description,
      request: { query: catalogServicesQuery },
      responses: listResponses,
    },
    {
      method: 'GET',
      path: '/v1/services',
      operationId: 'listAllServices',
      handler: 'service-catalog/list-all-services',
      summary: 'Services across orgs (alias of /v1/catalog/services)',
      description,
      request: { query: catalogServicesQuery },
      responses: listResponses,
    },
  ],
});
