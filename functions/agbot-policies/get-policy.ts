import { authorizeServedRead } from '#functions/agbot-patterns/shared/served-access';
import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getAgbotPolicy } from '#tables/agbot/policy-records';
import { agbotPoliciesRoutes } from './routes.ts';
import { policiesBody } from './shared/policy-view.ts';

/** GET .../agbots/{agreementbot}/deployment/policies/{deploymentpolicy}: the owning user or the agbot. */
export const handler = endpoint(agbotPoliciesRoutes.operations.getAgbotPolicy, {
  authorize: ({ caller, path }) => authorizeServedRead(caller, path),
  async handle({ path }) {
    const record = await getAgbotPolicy(path.organization, path.agreementbot, path.deploymentpolicy);
    const body = policiesBody(record ? [record] : []);
    if (!record) throw emptyList(body);
    return json(200, body);
  },
});
