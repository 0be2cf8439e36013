import { endpoint } from '#lib/http/endpoint';
import { ok } from '#lib/http/responses';
import { orgPath } from '#lib/ids';
import { isoTimestamp } from '#lib/time';
import { putAgentFileVersions } from '#tables/agent-file-versions';
import { authorizeAgentConfig } from './authorize-agent-config.ts';
import { putAgentFileVersionsBody } from './schemas.ts';

/** PUT /v1/orgs/{organization}/AgentFileVersion: root, hub admins, IBM org admins, any agbot. */
export const handler = endpoint({
  path: orgPath,
  body: putAgentFileVersionsBody,
  authorize: ({ caller, path }) => authorizeAgentConfig(caller, path.organization, 'WRITE_AGENT_CONFIG_MGMT'),
  async handle({ body, deps }) {
    // The three lists are replaced as given, order kept.
    await putAgentFileVersions(body, isoTimestamp(deps.clock));
    return ok("attribute 'AgentFileVersion' of org 'IBM' updated");
  },
});
