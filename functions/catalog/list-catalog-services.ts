import { endpoint } from '#functions/endpoint';
import { authorizeServiceAccess } from '#functions/services/shared/access';
import { serviceListFilter } from '#functions/services/shared/list-filters';
import { servicesBody } from '#functions/services/shared/service-view';
import { IBM_ORG, isMultiTenantAgbot, isSuperUser } from '#lib/auth/caller';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listOrgs } from '#tables/org/records';
import { listCatalogServices } from '#tables/service/records';
import { catalogRoutes } from './routes.ts';

/**
 * GET /v1/catalog/services (also GET /v1/services): every caller but hub admins. Root and
 * multi-tenant agbots see every service; others their own org's, IBM's and the public ones of any
 * org (docs/exchange-catalog.md#catalog-of-services). Filters as the org list, without its 400s (upstream: `nodetype` other than
 * device/cluster is ignored, `version` is not checked).
 */
export const handler = endpoint(catalogRoutes.operations.listCatalogServices, {
  authorize: ({ caller }) => authorizeServiceAccess(caller, caller.org, '*', 'READ', { collection: true }),
  async handle({ caller, query }) {
    const everything = isSuperUser(caller) || isMultiTenantAgbot(caller);
    const scope = everything
      ? { allOrgs: (await listOrgs()).map((org) => org.org) }
      : { orgs: [caller.org, IBM_ORG] };
    const records = (await listCatalogServices(scope)).filter(serviceListFilter(query));
    const body = servicesBody(records);
    if (records.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
