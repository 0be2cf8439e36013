import { endpoint } from '#functions/endpoint';
import { policyNames, reportedPolicies } from '#lib/agbot-store/policy-status';
import { json } from '#lib/http/responses';
import { agbotStatusRoutes } from './routes.ts';
import { authorizeStatusReader } from './shared/access.ts';
import { orgStatusView } from './shared/view.ts';

/**
 * GET /v1/orgs/{organization}/agbotstatus/policies: the names of the org's policies and pattern
 * services the in-stack agbot has a status or live agreements for, as upstream's `GET /policy/{org}`.
 */
export const handler = endpoint(agbotStatusRoutes.operations.listAgbotStatusPolicies, {
  authorize: ({ caller, path }) => authorizeStatusReader(caller, path.organization),
  async handle({ path }) {
    const { statuses, live } = await orgStatusView(path.organization);
    const names = policyNames(reportedPolicies(statuses, live, path.organization));
    return json(200, { [path.organization]: names[path.organization] ?? [] });
  },
});
