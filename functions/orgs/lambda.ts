import { dispatcher } from '#functions/dispatch';
import { orgsRoutes } from './routes.ts';

/** The organizations family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(orgsRoutes);
