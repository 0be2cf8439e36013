import { endpoint } from '#functions/endpoint';
import { policyReport } from '#lib/agbot-store/policy-status';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { agbotStatusRoutes } from './routes.ts';
import { authorizeStatusReader, visibleNodeOrgs } from './shared/access.ts';
import { orgStatusView } from './shared/view.ts';

/**
 * GET /v1/orgs/{organization}/agbotstatus/policies/{policy}: the policy's counts (from the live
 * agreements), its last search and its skipped nodes, the nodes of other orgs hidden from users.
 */
export const handler = endpoint(agbotStatusRoutes.operations.getAgbotStatusPolicy, {
  authorize: ({ caller, path }) => authorizeStatusReader(caller, path.organization),
  async handle({ caller, path }) {
    const policy = `${path.organization}/${path.policy}`;
    const { statuses, live } = await orgStatusView(path.organization);
    const status = statuses.find((s) => s.policy === policy);
    if (!status && !live.some((a) => a.policy === policy))
      throw notFound(`policy '${policy}' is not served by the agbot`);
    return json(200, policyReport(policy, status, live, visibleNodeOrgs(caller)));
  },
});
