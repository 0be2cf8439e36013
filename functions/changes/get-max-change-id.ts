import type * as z from 'zod';
import { endpoint } from '#functions/endpoint';
import { authorize } from '#lib/auth/access';
import { json } from '#lib/http/responses';
import { maxChangeId } from '#tables/feed/changes';
import type { maxChangeIdResponse } from './responses.ts';
import { changesRoutes } from './routes.ts';

/** GET /v1/changes/maxchangeid: nodes, agbots, org admins and root (users and hub admins: 403). */
export const handler = endpoint(changesRoutes.operations.getMaxChangeId, {
  authorize: ({ caller }) => authorize(caller, { type: 'action' }, 'MAXCHANGEID'),
  async handle() {
    const body: z.infer<typeof maxChangeIdResponse> = { maxChangeId: await maxChangeId() };
    return json(200, body);
  },
});
