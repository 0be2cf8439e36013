import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { ok } from '#lib/http/responses';
import { ensureBuiltInAgbot } from '#tables/agbot/built-in';
import { bootstrap } from '#tables/bootstrap';
import { adminRoutes } from './routes.ts';

/**
 * POST /v1/admin/initdb: root only. Recreates what the Exchange needs (orgs root and IBM, the
 * root user record) and the built-in agbot `IBM/agbot` that the stack's agbot functions run as
 * (its token generated once and kept sealed, docs/agbot.md "In the stack"). The table itself
 * always exists, so this is idempotent: 201 every time.
 */
export const handler = endpoint(adminRoutes.operations.adminInitDb, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'ADMIN'),
  async handle() {
    await bootstrap();
    await ensureBuiltInAgbot();
    return ok('db initialized successfully');
  },
});
