import { dispatcher } from '#functions/dispatch';
import { patternsRoutes } from './routes.ts';

/** The deployment patterns family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(patternsRoutes);
