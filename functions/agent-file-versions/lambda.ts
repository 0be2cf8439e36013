import { dispatcher } from '#functions/dispatch';
import { agentFileVersionsRoutes } from './routes.ts';

/** The agent file versions family's one Lambda: each request goes to the handler its route names in routes.ts. */
export const handler = dispatcher(agentFileVersionsRoutes);
