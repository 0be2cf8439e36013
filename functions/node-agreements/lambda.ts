import { dispatcher } from '#functions/dispatch';
import { nodeAgreementsRoutes } from './routes.ts';

/** The node agreements family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(nodeAgreementsRoutes);
