import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { removeMessages } from '#tables/mailbox/cleanup';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeMessageDelete } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}: the owning user or the
 * agbot (whoever may write it). 204, or 404 when the message is not there, as for node messages
 * (upstream answers 204 either way).
 */
export const handler = endpoint(agbotMessagesRoutes.operations.deleteAgbotMessage, {
  authorize: ({ caller, path }) => authorizeMessageDelete(caller, path),
  async handle({ path, target }) {
    const removed = target.message ? await removeMessages(target.box, [target.message]) : 0;
    if (removed === 0)
      throw notFound(`msg '${path.message}' for agbot '${path.organization}/${path.agreementbot}' not found`);
    return noContent();
  },
});
