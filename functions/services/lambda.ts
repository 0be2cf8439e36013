import { dispatcher } from '#functions/dispatch';
import { servicesRoutes } from './routes.ts';

/** The services family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(servicesRoutes);
