import { routeList } from '#lib/openapi/route';
import { openApiResponse } from './shared/responses.ts';

/** The document itself, anonymous like upstream's swagger. */
export const openApiRoutes = routeList({
  folder: 'openapi',
  mounts: ['/v1/openapi.json'],
  tag: 'api description',
  description: 'This document',
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
  ],
});
