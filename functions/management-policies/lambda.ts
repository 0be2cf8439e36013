import { dispatcher } from '#functions/dispatch';
import { managementPoliciesRoutes } from './routes.ts';

/** The management policy family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(managementPoliciesRoutes);
