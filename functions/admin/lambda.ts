import { dispatcher } from '#functions/dispatch';
import { adminRoutes } from './routes.ts';

/** The administration family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(adminRoutes);
