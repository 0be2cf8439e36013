import { dispatcher } from '#functions/dispatch';
import { openApiRoutes } from './routes.ts';

/** The api description family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(openApiRoutes);
