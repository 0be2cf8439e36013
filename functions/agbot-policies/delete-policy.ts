import { authorizeServedWrite } from '#functions/agbot-patterns/shared/served-access';
import { agbotId } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgbotPolicy } from '#tables/agbot/policy-records';
import { agbotPoliciesRoutes } from './routes.ts';

/** DELETE .../agbots/{agreementbot}/deployment/policies/{deploymentpolicy}: the owning user or the agbot. */
export const handler = endpoint(agbotPoliciesRoutes.operations.deleteAgbotPolicy, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ path }) {
    const { organization, agreementbot, deploymentpolicy } = path;
    if (!(await deleteAgbotPolicy(organization, agreementbot, deploymentpolicy))) {
      throw notFound(`businessPol '${deploymentpolicy}' for agbot '${agbotId(path)}' not found`);
    }
    return noContent();
  },
});
