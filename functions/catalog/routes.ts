import { patternsResponse } from '#functions/patterns/shared/responses';
import { catalogPatternsQuery } from '#functions/patterns/shared/schemas';
import { getServicesResponse } from '#functions/services/shared/responses';
import { catalogServicesQuery } from '#functions/services/shared/schemas';
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

const patternsDescription =
  "Every caller but hub admins. Users and org admins see their org's, org IBM's and the public patterns; " +
  'nodes, agbots and root every pattern of every org. Filters `organization`, `idfilter`, `owner`, `label`, ' +
  '`description`, `clusternamespace` (exact, or LIKE with `%`), `public`; `orgtype` is ignored. None → 404 with the empty map.';

const patternListResponses = {
  200: { description: 'patterns by `<org>/<name>`', schema: patternsResponse },
  ...errors(400, 401, 403),
  404: emptyListOrError(patternsResponse),
};

/** The catalog across orgs: services (docs/exchange-catalog.md#catalog-of-services) and deployment patterns (docs/exchange-catalog.md#catalog-of-patterns). */
export const catalogRoutes = routeList({
  folder: 'catalog',
  mounts: ['/v1/catalog/{proxy+}', '/v1/services', '/v1/deployment/patterns'],
  tag: 'catalog',
  description: 'Services and deployment patterns visible to the caller across orgs',
  routes: [
    {
      method: 'GET',
      path: '/v1/catalog/services',
      operationId: 'listCatalogServices',
      handler: () => import('./list-catalog-services.ts'),
      summary: 'Services across orgs',
      description,
      request: { query: catalogServicesQuery },
      responses: listResponses,
    },
    {
      method: 'GET',
      path: '/v1/services',
      operationId: 'listAllServices',
      handler: () => import('./list-all-services.ts'),
      summary: 'Services across orgs (alias of /v1/catalog/services)',
      description,
      request: { query: catalogServicesQuery },
      responses: listResponses,
    },
    {
      method: 'GET',
      path: '/v1/catalog/patterns',
      operationId: 'listCatalogPatterns',
      handler: () => import('./list-catalog-patterns.ts'),
      summary: 'Deployment patterns across orgs',
      description: patternsDescription,
      request: { query: catalogPatternsQuery },
      responses: patternListResponses,
    },
    {
      method: 'GET',
      path: '/v1/deployment/patterns',
      operationId: 'listAllPatterns',
      handler: () => import('./list-catalog-patterns.ts'),
      summary: 'Deployment patterns across orgs (alias of /v1/catalog/patterns)',
      description: patternsDescription,
      request: { query: catalogPatternsQuery },
      responses: patternListResponses,
    },
  ],
});
