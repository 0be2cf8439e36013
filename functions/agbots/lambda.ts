import { dispatcher } from '#functions/dispatch';
import { agbotsRoutes } from './routes.ts';

/** The agbots family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agbotsRoutes);
