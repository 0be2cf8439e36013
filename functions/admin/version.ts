import { endpoint } from '#functions/endpoint';
import { text } from '#lib/http/responses';
import { EXCHANGE_VERSION } from '#lib/version';
import { adminRoutes } from './routes.ts';

/** GET /v1/admin/version: anonymous, plain text, no quotes (clients compare it as a string). */
export const handler = endpoint(adminRoutes.operations.adminVersion, {
  handle: () => text(200, `${EXCHANGE_VERSION}\n`),
});
