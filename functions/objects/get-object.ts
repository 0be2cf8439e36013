import { endpoint } from '#functions/endpoint';
import { json } from '#lib/http/responses';
import { objectsRoutes } from './routes.ts';
import { readableObject } from './shared/access.ts';
import { metaView } from './shared/view.ts';

/** GET /v1/css/api/v1/objects/{organization}/{objectType}/{objectID}: the object's metadata (404 when missing or not readable). */
export const handler = endpoint(objectsRoutes.operations.getObject, {
  authorize: ({ caller, path }) => readableObject(caller, path),
  handle: ({ target }) => json(200, metaView(target)),
});
