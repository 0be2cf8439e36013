import { cancelAgreement } from '../agreements/cancel.ts';
import { loadAgreements } from '../agreements/store.ts';
import { agreementsView } from '../agreements/view.ts';
import type { RoutesPlugin } from './plugin.ts';

/** GET /agreement, DELETE /agreement/{id} (no registration needed, as upstream). */
export const agreementRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/agreement', async () => agreementsView(loadAgreements(ctx.store)));

  // Contract: 200 and no body.
  app.delete<{ Params: { id: string } }>('/agreement/:id', async (req, reply) => {
    cancelAgreement(ctx, req.params.id);
    return reply.code(200).send();
  });
};
