import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { objectsRoutes } from './routes.ts';
import { readableObject } from './shared/access.ts';
import { downloadUrl } from './shared/data-calls.ts';
import { dataStore } from './shared/data-store.ts';

/**
 * GET /v1/css/api/v1/objects/{organization}/{objectType}/{objectID}/data: 302 to a URL signed for this
 * object's data, valid 15 minutes (S3, or the local store), so 100 MB never pass through a
 * function. Clients follow the redirect and drop their credentials on the way (another origin).
 */
export const handler = endpoint(objectsRoutes.operations.getObjectData, {
  authorize: ({ caller, path }) => readableObject(caller, path),
  handle({ path, target }) {
    if (target.dataSize === undefined) throw notFound(`object '${path.objectID}' has no data`);
    return { statusCode: 302, headers: { location: downloadUrl(dataStore(), path) }, body: '' };
  },
});
