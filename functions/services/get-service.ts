import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { servicesRoutes } from './routes.ts';
import { authorizeService, canSeeService, serviceNotFound } from './shared/access.ts';
import { serviceAttribute, servicesBody } from './shared/service-view.ts';

/**
 * GET /v1/orgs/{organization}/services/{service}[?attribute=]: whoever may read it (docs/exchange-catalog.md#catalog-authorization) and see
 * its row (docs/exchange-catalog.md#service-visibility); otherwise 404 `{code,msg}`. One GetItem: the record `authorize` read is returned.
 */
export const handler = endpoint(servicesRoutes.operations.getService, {
  authorize: ({ caller, path }) => authorizeService(caller, path, 'READ'),
  handle({ caller, path, query, target }) {
    if (!target || !canSeeService(caller, target)) throw serviceNotFound(path);
    const value = query.attribute ? serviceAttribute(target, query.attribute) : undefined;
    if (value !== undefined) return json(200, { attribute: query.attribute, value });
    return json(200, servicesBody([target]));
  },
});
