import { agbotId, authorizeAgbot } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgreement } from '#tables/agbot/agreement-records';
import { agbotAgreementsRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}: who may write the agbot; 204. */
export const handler = endpoint(agbotAgreementsRoutes.operations.deleteAgbotAgreement, {
  authorize: ({ caller, path }) => authorizeAgbot(caller, path, 'WRITE'),
  async handle({ path, target }) {
    if (!target || !(await deleteAgreement(path.organization, path.agreementbot, path.agreement))) {
      throw notFound(`agreement '${path.agreement}' for agbot '${agbotId(path)}' not found`);
    }
    return noContent();
  },
});
