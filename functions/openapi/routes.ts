import { routeList } from '#lib/openapi/route';
import { openApiResponse } from './shared/responses.ts';

/**
 * What the stack serves to read rather than to call: this document, anonymous like upstream's
 * swagger, and the device installer (our extension: upstream's comes from its file sync service).
 */
export const openApiRoutes = routeList({
  folder: 'openapi',
  mounts: ['/v1/openapi.json', '/v1/agent-install.sh'],
  tag: 'api description',
  description: 'This document, and the installer of the node agent',
  components: { OpenApiDocument: openApiResponse },
  routes: [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      operationId: 'getOpenApi',
      handler: () => import('./get-openapi.ts'),
      summary: 'The OpenAPI 3.1 description of this API',
      description: 'Generated from the schemas that validate the requests and describe the responses.',
      anonymous: true,
      responses: { 200: { description: 'this document', schema: openApiResponse } },
    },
    {
      method: 'GET',
      path: '/v1/agent-install.sh',
      operationId: 'getAgentInstall',
      handler: () => import('./get-agent-install.ts'),
      summary: 'The installer of the node agent, agent-install.sh',
      description:
        'The POSIX sh script that installs, registers and starts the agent on a Linux device ' +
        '(docs/agent.md): `curl -sSf <exchange>/v1/agent-install.sh | sh -s -- -k agent-install.cfg`. ' +
        'Cacheable for 5 minutes; its ETag is a hash of the script, and `If-None-Match` with it ' +
        'answers 304. Not in upstream, which serves its installer from its file sync service.',
      anonymous: true,
      responses: {
        200: { description: 'the script', text: 'text/x-shellscript' },
        304: { description: 'the copy named by If-None-Match is current (no body)' },
      },
    },
  ],
});
