import { authorizeAgbotOwnerRead } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { listAgreements } from '#tables/agbot/agreement-records';
import { agbotAgreementsRoutes } from './routes.ts';
import { agreementsResponse } from './shared/agreement-view.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/agreements: the agbot, its owner, org admins,
 * hub admins, root. One Query of the agbot's partition; none (or no agbot) → 404 with the empty map.
 */
export const handler = endpoint(agbotAgreementsRoutes.operations.listAgbotAgreements, {
  authorize: ({ caller, path }) => authorizeAgbotOwnerRead(caller, path),
  async handle({ path, target }) {
    return agreementsResponse(target ? await listAgreements(path.organization, path.agreementbot) : []);
  },
});
