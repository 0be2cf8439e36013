import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgbotAgreement } from './delete-agreement.ts';
import { handler as deleteAgbotAgreements } from './delete-agreements.ts';
import { handler as getAgbotAgreement } from './get-agreement.ts';
import { handler as listAgbotAgreements } from './list-agreements.ts';
import { handler as putAgbotAgreement } from './put-agreement.ts';
import { agbotAgreementsRoutes } from './routes.ts';

/** The agbot agreements family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agbotAgreementsRoutes, {
  'agbot-agreements/list-agreements': listAgbotAgreements,
  'agbot-agreements/delete-agreements': deleteAgbotAgreements,
  'agbot-agreements/get-agreement': getAgbotAgreement,
  'agbot-agreements/put-agreement': putAgbotAgreement,
  'agbot-agreements/delete-agreement': deleteAgbotAgreement,
});
