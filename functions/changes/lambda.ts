import { dispatcher } from '#functions/dispatch';
import { changesRoutes } from './routes.ts';

/** The change feed family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(changesRoutes);
