import { authorizeAgbotOwnerRead } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { listAgreements } from '#tables/agbot/agreement-records';
import { agreementsResponse } from './shared/agreement-view.ts';
import { agreementsPath } from './shared/schemas.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/agreements: the agbot, its owner, org admins,
 * hub admins, root. One Query of the agbot's partition; none (or no agbot) → 404 with the empty map.
 */
export const handler = endpoint({
  path: agreementsPath,
  authorize: ({ caller, path }) => authorizeAgbotOwnerRead(caller, path),
  async handle({ path, target }) {
    return agreementsResponse(target ? await listAgreements(path.organization, path.agreementbot) : []);
  },
});
