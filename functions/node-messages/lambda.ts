import { dispatcher } from '#functions/dispatch';
import { nodeMessagesRoutes } from './routes.ts';

/** The node messages family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(nodeMessagesRoutes);
