import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { reloadConfig } from '#lib/config';
import { HttpError } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { adminRoutes } from './routes.ts';

/**
 * POST /v1/admin/reload: root only. Rereads config/exchange.json (or EXCHANGE_CONFIG_FILE) and the
 * environment; an invalid file leaves the running settings untouched and says what is wrong.
 */
export const handler = endpoint(adminRoutes.operations.adminReload, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'ADMIN'),
  handle() {
    try {
      reloadConfig();
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      throw new HttpError(500, 'internal_error', `reload failed, previous settings kept: ${problem}`);
    }
    return ok('reload successful');
  },
});
