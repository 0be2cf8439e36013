import { dispatcher } from '#functions/dispatch';
import { agbotPatternsRoutes } from './routes.ts';

/** The agbot deployment patterns family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotPatternsRoutes);
