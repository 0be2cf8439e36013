import { dispatcher } from '#functions/dispatch';
import { handler as getOpenApi } from './get-openapi.ts';
import { openApiRoutes } from './routes.ts';

/** The api description family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(openApiRoutes, {
  'openapi/get-openapi': getOpenApi,
});
