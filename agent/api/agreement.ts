import { cancelAgreement } from '../agreements/cancel.ts';
import { loadAgreements } from '../agreements/store.ts';
import { agreementsView } from '../agreements/view.ts';
import type { RoutesPlugin } from './plugin.ts';

/** GET /agreement, DELETE /agreement/{id} (no registration needed, as upstream). */
export const agreementRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/agreement', async () => agreementsView(loadAgreements(ctx.store)));

  // 200 and no body (docs/agent.md#endpoints). The termination finishes in the background (containers, Exchange
  // row, cancel to the agbot), as upstream; the events tell when it is done.
  app.delete<{ Params: { id: string } }>('/agreement/:id', async (req, reply) => {
    if (ctx.protocol) ctx.protocol.cancelByUser(req.params.id);
    else cancelAgreement(ctx, req.params.id);
    return reply.code(200).send();
  });
};
