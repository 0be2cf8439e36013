import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { clearAgentFileVersions } from '#tables/org/agent-file-versions';
import { agentFileVersionsRoutes } from './routes.ts';
import { authorizeAgentConfig } from './shared/authorize-agent-config.ts';

/**
 * DELETE /v1/orgs/{organization}/AgentFileVersion: who may PUT. Empties the org's three lists (GET
 * then answers 200 with empty lists); 404 when the org's versions were never stored.
 */
export const handler = endpoint(agentFileVersionsRoutes.operations.deleteAgentFileVersions, {
  authorize: ({ caller, path }) => authorizeAgentConfig(caller, path.organization, 'WRITE_AGENT_CONFIG_MGMT'),
  async handle({ path, deps }) {
    if (!(await clearAgentFileVersions(path.organization, isoTimestamp(deps.clock)))) {
      throw notFound('agent file versions not deleted');
    }
    return noContent();
  },
});
