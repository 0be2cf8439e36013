import { dispatcher } from '#functions/dispatch';
import { agbotAgreementsRoutes } from './routes.ts';

/** The agbot agreements family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotAgreementsRoutes);
