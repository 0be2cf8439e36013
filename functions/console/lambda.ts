import { dispatcher } from '#functions/dispatch';
import { consoleRoutes } from './routes.ts';

/** The console family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(consoleRoutes);
