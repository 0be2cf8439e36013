import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { objectsRoutes } from './routes.ts';
import { authorizeWrite } from './shared/access.ts';
import { uploadUrl } from './shared/data-calls.ts';
import { dataStore, URL_SECONDS } from './shared/data-store.ts';

/**
 * GET /v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/upload (our extension): org admins
 * and root get a URL to PUT the object's data to directly (S3 or the local store), valid 15
 * minutes; a PUT of the metadata afterwards publishes it. `npm run publish-agent` uses it.
 */
export const handler = endpoint(objectsRoutes.operations.getUploadUrl, {
  authorize: ({ caller, path }) => authorizeWrite(caller, path.organization),
  handle: ({ path }) =>
    json(200, { url: uploadUrl(dataStore(), path), method: 'PUT', expiresSeconds: URL_SECONDS }),
});
