import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { hashSecret, randomToken } from '#lib/auth/secrets';
import { json } from '#lib/http/responses';
import { saveDropToken } from '#tables/admin/drop-token';
import { adminRoutes } from './routes.ts';
import type { dropTokenResponse } from './shared/responses.ts';

/**
 * GET /v1/admin/dropdb/token: root only. A fresh one-time token for POST /v1/admin/dropdb, valid
 * `dropTokenTtlSeconds` (10 minutes); only its hash is stored and it replaces any earlier token.
 */
export const handler = endpoint(adminRoutes.operations.adminDropDbToken, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'ADMIN'),
  async handle({ deps }) {
    const token = randomToken();
    const expiresAt = new Date(deps.clock.now().getTime() + deps.config().dropTokenTtlSeconds * 1000);
    await saveDropToken(await hashSecret(token), expiresAt);
    const body: z.infer<typeof dropTokenResponse> = { token };
    return json(200, body);
  },
});
