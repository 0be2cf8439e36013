import { dispatcher } from '#functions/dispatch';
import { nodeManagementStatusRoutes } from './routes.ts';

/** The node management status family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(nodeManagementStatusRoutes);
