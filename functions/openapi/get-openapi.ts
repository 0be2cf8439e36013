import { endpoint } from '#functions/endpoint';
import { json, type Response } from '#lib/http/responses';
import { openApiRoutes } from './routes.ts';
import { openApiDocument } from './shared/document.ts';

let cached: Response | undefined;

/** GET /v1/openapi.json: anonymous; built once per cold start from the route lists. */
export const handler = endpoint(openApiRoutes.operations.getOpenApi, {
  handle: () => {
    cached ??= json(200, openApiDocument());
    return cached;
  },
});
