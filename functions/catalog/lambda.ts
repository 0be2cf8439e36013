import { dispatcher } from '#functions/dispatch';
import { catalogRoutes } from './routes.ts';

/** The catalog's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(catalogRoutes);
