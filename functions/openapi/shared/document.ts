import { FAMILIES } from '#functions/families';
import { buildDocument, type OpenApiDocument } from '#lib/openapi/document';
import { EXCHANGE_VERSION } from '#lib/version';

/** GET /v1/openapi.json's body, built from the same route lists as serverless.yml's functions. */
export function openApiDocument(): OpenApiDocument {
  return buildDocument(FAMILIES, {
    title: 'Open Horizon Exchange',
    version: EXCHANGE_VERSION,
    description:
      'Serverless, API-compatible re-implementation of the Open Horizon Exchange. Errors are ' +
      '`{"code", "msg"}` JSON; an empty list is a 404 with the empty collection.',
  });
}
