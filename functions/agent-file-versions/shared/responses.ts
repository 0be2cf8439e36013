import * as z from 'zod';

/** Response body of GET /v1/orgs/{organization}/AgentFileVersion (docs/exchange.md#agent-file-versions). */
export const agentVersionsResponse = z.object({
  agentSoftwareVersions: z.array(z.string()),
  agentConfigVersions: z.array(z.string()),
  agentCertVersions: z.array(z.string()),
  lastUpdated: z.string(),
});
