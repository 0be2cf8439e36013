import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { removeMessages } from '#tables/mailbox-cleanup';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeMessageDelete } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}: the owning user or the
 * agbot (whoever may write it). 204 whether or not the message was there, as upstream.
 */
export const handler = endpoint(agbotMessagesRoutes.operations.deleteAgbotMessage, {
  authorize: ({ caller, path }) => authorizeMessageDelete(caller, path),
  async handle({ target }) {
    if (target.message) await removeMessages(target.box, [target.message]);
    return noContent();
  },
});
