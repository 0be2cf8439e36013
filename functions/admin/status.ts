import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { json } from '#lib/http/responses';
import { adminRoutes } from './routes.ts';
import type { adminStatus } from './shared/responses.ts';
import { OPERATING_NORMALLY, statusFigures } from './shared/status-figures.ts';

/** GET /v1/admin/status: STATUS (root, hub admin, org admin, user); figures come from the counters. */
export const handler = endpoint(adminRoutes.operations.adminStatus, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'STATUS'),
  async handle({ caller }) {
    const { schemaVersion, ...figures } = await statusFigures(caller);
    const body: z.infer<typeof adminStatus> = {
      dbSchemaVersion: schemaVersion,
      msg: OPERATING_NORMALLY,
      ...figures,
    };
    return json(200, body);
  },
});
