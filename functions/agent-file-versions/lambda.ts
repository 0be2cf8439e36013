import { dispatcher } from '#functions/dispatch';
import { handler as deleteAgentFileVersions } from './delete-agent-file-versions.ts';
import { handler as getAgentFileVersions } from './get-agent-file-versions.ts';
import { handler as putAgentFileVersions } from './put-agent-file-versions.ts';
import { agentFileVersionsRoutes } from './routes.ts';

/** The agent file versions family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(agentFileVersionsRoutes, {
  'agent-file-versions/get-agent-file-versions': getAgentFileVersions,
  'agent-file-versions/put-agent-file-versions': putAgentFileVersions,
  'agent-file-versions/delete-agent-file-versions': deleteAgentFileVersions,
});
