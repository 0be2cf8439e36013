import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { putAgentFileVersions } from '#tables/org/agent-file-versions';
import { agentFileVersionsRoutes } from './routes.ts';
import { authorizeAgentConfig } from './shared/authorize-agent-config.ts';

/**
 * PUT /v1/orgs/{organization}/AgentFileVersion: the org's agbots and org admins, multi-tenant
 * agbots, hub admins, root. 404 when the org does not exist.
 */
export const handler = endpoint(agentFileVersionsRoutes.operations.putAgentFileVersions, {
  authorize: ({ caller, path }) => authorizeAgentConfig(caller, path.organization, 'WRITE_AGENT_CONFIG_MGMT'),
  async handle({ path, body, deps }) {
    const org = path.organization;
    // The three lists are replaced as given, order kept.
    if (!(await putAgentFileVersions(org, body, isoTimestamp(deps.clock))))
      throw notFound(`org '${org}' not found`);
    return ok(`attribute 'AgentFileVersion' of org '${org}' updated`);
  },
});
