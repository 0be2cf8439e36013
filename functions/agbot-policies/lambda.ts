import { dispatcher } from '#functions/dispatch';
import { agbotPoliciesRoutes } from './routes.ts';

/** The agbot deployment policies family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotPoliciesRoutes);
