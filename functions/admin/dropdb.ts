import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { deleteAllItems } from '#tables/admin/drop-all';
import { adminRoutes } from './routes.ts';
import { authenticateWithDropToken } from './shared/drop-token-auth.ts';

/**
 * POST /v1/admin/dropdb: root/root authenticated with the one-time token from
 * GET /v1/admin/dropdb/token. Deletes every item of the table; POST /v1/admin/initdb (or the next
 * `npm start`) restores the root and IBM orgs and the root user.
 */
export const handler = endpoint(adminRoutes.operations.adminDropDb, {
  // Authentication is the token check itself, done where the injected clock is available.
  auth: false,
  authorize: ({ event, deps }) =>
    authenticateWithDropToken(event.headers.authorization ?? event.headers.Authorization, deps),
  async handle() {
    await deleteAllItems();
    return ok('db deleted successfully');
  },
});
