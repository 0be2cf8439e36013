import { dispatcher } from '#functions/dispatch';
import { usersRoutes } from './routes.ts';

/** The users family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(usersRoutes);
