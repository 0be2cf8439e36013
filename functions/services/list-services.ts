import { endpoint } from '#functions/endpoint';
import { badInput, emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { listOrgServices } from '#tables/service/records';
import { servicesRoutes } from './routes.ts';
import { authorizeServiceAccess, canSeeService } from './shared/access.ts';
import { NODE_TYPES, serviceListFilter } from './shared/list-filters.ts';
import { versionProblem } from './shared/rules.ts';
import { servicesBody } from './shared/service-view.ts';

/**
 * GET /v1/orgs/{organization}/services: every caller but hub admins; rows as docs/exchange-catalog.md#service-visibility (plain users:
 * their own and the public ones). One Query of the org's gsi1 partition.
 */
export const handler = endpoint(servicesRoutes.operations.listServices, {
  authorize: ({ caller, path }) =>
    authorizeServiceAccess(caller, path.organization, '*', 'READ', { collection: true }),
  async handle({ caller, path, query }) {
    const problem = query.version !== undefined ? versionProblem(query.version) : undefined;
    if (problem) throw badInput(problem);
    if (query.nodetype !== undefined && !NODE_TYPES.includes(query.nodetype.toLowerCase()))
      throw badInput(`the 'nodetype' url parameter must have one of these values: ${NODE_TYPES.join(', ')}`);
    const keep = serviceListFilter(query);
    const records = await listOrgServices(path.organization);
    const body = servicesBody(records.filter((r) => canSeeService(caller, r) && keep(r)));
    if (Object.keys(body.services).length === 0) throw emptyList(body);
    return json(200, body);
  },
});
