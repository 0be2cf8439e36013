import * as z from 'zod';

/** Request schemas of /v1/orgs/{organization}/AgentFileVersion (docs/exchange.md#agent-file-versions). */
const versionList = z.array(z.string().max(256)).max(1000);

/** PUT: the three lists, replaced as given. */
export const putAgentFileVersionsBody = z.strictObject({
  agentSoftwareVersions: versionList,
  agentConfigVersions: versionList,
  agentCertVersions: versionList,
});
