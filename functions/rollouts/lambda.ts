import { dispatcher } from '#functions/dispatch';
import { rolloutsRoutes } from './routes.ts';

/** The rollouts family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(rolloutsRoutes);
