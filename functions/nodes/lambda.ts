import { dispatcher } from '#functions/dispatch';
import { nodesRoutes } from './routes.ts';

/** The nodes family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(nodesRoutes);
