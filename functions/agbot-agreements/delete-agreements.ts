import { agbotId, authorizeAgbot } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAllAgreements } from '#tables/agbot/agreement-records';
import { agbotAgreementsRoutes } from './routes.ts';

/** DELETE /v1/orgs/{organization}/agbots/{agreementbot}/agreements: every agreement of the agbot; 204, none → 404. */
export const handler = endpoint(agbotAgreementsRoutes.operations.deleteAgbotAgreements, {
  authorize: ({ caller, path }) => authorizeAgbot(caller, path, 'WRITE'),
  async handle({ path, target }) {
    const deleted = target ? await deleteAllAgreements(path.organization, path.agreementbot) : 0;
    if (deleted === 0) throw notFound(`no agreements for agbot '${agbotId(path)}' found`);
    return noContent();
  },
});
