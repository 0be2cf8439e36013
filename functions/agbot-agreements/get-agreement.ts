import { authorizeAgbotOwnerRead } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { getAgreement } from '#tables/agbot/agreement-records';
import { agbotAgreementsRoutes } from './routes.ts';
import { agreementsResponse } from './shared/agreement-view.ts';

/** GET /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}: as the list; absent → 404 empty map. */
export const handler = endpoint(agbotAgreementsRoutes.operations.getAgbotAgreement, {
  authorize: ({ caller, path }) => authorizeAgbotOwnerRead(caller, path),
  async handle({ path, target }) {
    const agreement = target && (await getAgreement(path.organization, path.agreementbot, path.agreement));
    return agreementsResponse(agreement ? [agreement] : []);
  },
});
