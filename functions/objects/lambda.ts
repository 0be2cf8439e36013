import { dispatcher } from '#functions/dispatch';
import { objectsRoutes } from './routes.ts';

/** The object store family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(objectsRoutes);
