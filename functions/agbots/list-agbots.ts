import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { type Caller, IBM_ORG, isMultiTenantAgbot, isSuperUser, isUserType } from '#lib/auth/caller';
import { accessDenied } from '#lib/http/errors';
import { listOrgAgbots } from '#tables/agbot/records';
import { agbotsRoutes } from './routes.ts';
import { agbotsResponse } from './shared/agbot-view.ts';
import { agbotListFilter, idPrefix } from './shared/list-filters.ts';

/** Upstream shows root and multi-tenant agbots any org's agbots; everyone else only its own org's and IBM's. */
const mayList = (caller: Caller, org: string) =>
  isSuperUser(caller) || isMultiTenantAgbot(caller) || org === caller.org || org === IBM_ORG;

/**
 * GET /v1/orgs/{organization}/agbots[?idfilter=&name=&owner=]: any user of the org, org admins,
 * hub admins, root (only users: nodes and agbots get 403; docs/compatibility.md#agbots-and-agbot-agreements). One Query of the org's
 * gsi1 partition, narrowed by the literal start of `idfilter`.
 */
export const handler = endpoint(agbotsRoutes.operations.listAgbots, {
  authorize({ caller, path }) {
    authorize(caller, { type: 'agbot', org: path.organization, id: '#', exists: true }, 'READ');
    if (!isUserType(caller)) throw accessDenied(`Access denied: '${caller.fullId}' may not list agbots`);
  },
  async handle({ caller, path, query }) {
    const org = path.organization;
    const prefix = idPrefix(org, query.idfilter);
    const agbots = prefix === undefined || !mayList(caller, org) ? [] : await listOrgAgbots(org, prefix);
    return agbotsResponse(agbots.filter(agbotListFilter(query)));
  },
});
