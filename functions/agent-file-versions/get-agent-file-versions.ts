import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { getAgentFileVersions } from '#tables/org/agent-file-versions';
import { agentFileVersionsRoutes } from './routes.ts';
import { authorizeAgentConfig } from './shared/authorize-agent-config.ts';
import type { agentVersionsResponse } from './shared/responses.ts';

/**
 * GET /v1/orgs/{organization}/AgentFileVersion: any identity of the org, hub admins, root,
 * multi-tenant agbots (IBM's: any identity); 404 until the org's versions were first PUT.
 */
export const handler = endpoint(agentFileVersionsRoutes.operations.getAgentFileVersions, {
  authorize: ({ caller, path }) => authorizeAgentConfig(caller, path.organization, 'READ_AGENT_CONFIG_MGMT'),
  async handle({ path }) {
    const versions = await getAgentFileVersions(path.organization);
    if (!versions) throw notFound(`org '${path.organization}' not found`);
    const body: z.infer<typeof agentVersionsResponse> = {
      agentSoftwareVersions: versions.agentSoftwareVersions,
      agentConfigVersions: versions.agentConfigVersions,
      agentCertVersions: versions.agentCertVersions,
      lastUpdated: versions.lastUpdated,
    };
    return json(200, body);
  },
});
