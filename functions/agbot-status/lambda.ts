import { dispatcher } from '#functions/dispatch';
import { agbotStatusRoutes } from './routes.ts';

/** The agbot status family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotStatusRoutes);
