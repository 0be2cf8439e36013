import { orgPath } from '#lib/ids';
import { errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import { agentVersionsResponse } from './shared/responses.ts';
import { putAgentFileVersionsBody } from './shared/schemas.ts';

const kept =
  'Kept per organization (upstream keeps them for IBM only and answers 400 for any other org). ' +
  'Callers of other orgs: 403, except hub admins, root and multi-tenant agbots (org IBM).';

/** Agent file versions (docs/exchange.md#agent-file-versions). */
export const agentFileVersionsRoutes = routeList({
  folder: 'agent-file-versions',
  mounts: ['/v1/orgs/{organization}/AgentFileVersion'],
  tag: 'agent file versions',
  description: 'The versions of agent software, configuration and certificate files the hub offers',
  components: { AgentVersionsResponse: agentVersionsResponse },
  requests: { AgentVersionsRequest: putAgentFileVersionsBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/AgentFileVersion',
      operationId: 'getAgentFileVersions',
      handler: () => import('./get-agent-file-versions.ts'),
      summary: 'The three version lists',
      description: `Any identity of the org (IBM's lists: any identity). ${kept} 404 until the org's lists were first stored.`,
      request: { path: orgPath },
      responses: {
        200: { description: 'the lists', schema: agentVersionsResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'PUT',
      path: '/v1/orgs/{organization}/AgentFileVersion',
      operationId: 'putAgentFileVersions',
      handler: () => import('./put-agent-file-versions.ts'),
      summary: 'Replace the three version lists',
      description: `The org's agbots and org admins, multi-tenant agbots, hub admins and root. ${kept} 404: no such org.`,
      request: { path: orgPath, body: putAgentFileVersionsBody },
      responses: { 201: okResponse('stored'), ...errors(400, 401, 403, 404) },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/AgentFileVersion',
      operationId: 'deleteAgentFileVersions',
      handler: () => import('./delete-agent-file-versions.ts'),
      summary: 'Empty the three version lists',
      description: `As PUT. ${kept} 404 when the org's lists were never stored.`,
      request: { path: orgPath },
      responses: { 204: { description: 'emptied' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
