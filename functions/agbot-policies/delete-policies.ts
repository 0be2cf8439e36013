import { authorizeServedWrite } from '#functions/agbot-patterns/shared/served-access';
import { agbotId } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgbotPolicies } from '#tables/agbot/policy-records';
import { agbotPoliciesRoutes } from './routes.ts';

/** DELETE .../agbots/{agreementbot}/deployment/policies: every served policy; none → 404. */
export const handler = endpoint(agbotPoliciesRoutes.operations.deleteAgbotPolicies, {
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ path }) {
    if ((await deleteAgbotPolicies(path.organization, path.agreementbot)) === 0) {
      throw notFound(`no business policies for agbot '${agbotId(path)}' found`);
    }
    return noContent();
  },
});
