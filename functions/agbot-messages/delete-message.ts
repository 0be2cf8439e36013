import { authorizeExistingAgbot } from '#functions/agbots/access';
import { endpoint } from '#lib/http/endpoint';
import { noContent } from '#lib/http/responses';
import { agbotMailbox } from '#tables/agbot-message-records';
import { removeMessages } from '#tables/mailbox-cleanup';
import { messagePath } from './schemas.ts';

/**
 * DELETE /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}: the owning user or the
 * agbot (whoever may write it). 204 whether or not the message was there, as upstream.
 */
export const handler = endpoint({
  path: messagePath,
  authorize: ({ caller, path }) => authorizeExistingAgbot(caller, path, 'WRITE'),
  async handle({ path }) {
    await removeMessages(agbotMailbox(path.organization, path.agreementbot), [path.message]);
    return noContent();
  },
});
