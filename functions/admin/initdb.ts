import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { ok } from '#lib/http/responses';
import { bootstrap } from '#tables/bootstrap';
import { adminRoutes } from './routes.ts';

/**
 * POST /v1/admin/initdb: root only. Recreates what the Exchange needs (orgs root and IBM, the
 * root user record). The table itself always exists, so this is idempotent: 201 every time.
 */
export const handler = endpoint(adminRoutes.operations.adminInitDb, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'ADMIN'),
  async handle() {
    await bootstrap();
    return ok('db initialized successfully');
  },
});
