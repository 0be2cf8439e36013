import { dispatcher } from '#functions/dispatch';
import { deploymentPoliciesRoutes } from './routes.ts';

/** The deployment policies family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(deploymentPoliciesRoutes);
