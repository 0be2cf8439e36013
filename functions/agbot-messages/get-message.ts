import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { agbotMailbox } from '#tables/agbot/message-records';
import { readLiveMessage } from '#tables/mailbox/cleanup';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeMailboxReader } from './shared/access.ts';
import { messagesBody } from './shared/message-view.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}: a user or the agbot. A
 * non-integer id is a 400 before authorization; an expired or deleted message is a 404.
 */
export const handler = endpoint(agbotMessagesRoutes.operations.getAgbotMessage, {
  authorize: ({ caller, path }) => authorizeMailboxReader(caller, path),
  async handle({ path, deps }) {
    const box = agbotMailbox(path.organization, path.agreementbot);
    const found = await readLiveMessage(box, path.message, isoTimestamp(deps.clock));
    if (!found) throw notFound('not found');
    return json(200, messagesBody([found]));
  },
});
