import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { readBounds } from '#lib/mailbox';
import { isoTimestamp } from '#lib/time';
import { agbotMailbox } from '#tables/agbot/message-records';
import { readLiveMessages } from '#tables/mailbox/cleanup';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeMailboxReader } from './shared/access.ts';
import { messagesBody } from './shared/message-view.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs[?maxmsgs=N][&after=ID]: a user or the
 * agbot. Oldest first, at most 100 messages and about 2 MB (a page: read the next with `after` =
 * its last id); expired messages are never returned, and this read deletes them. None → 404 `[]`.
 */
export const handler = endpoint(agbotMessagesRoutes.operations.listAgbotMessages, {
  authorize: ({ caller, path }) => authorizeMailboxReader(caller, path),
  async handle({ path, query, deps }) {
    const box = agbotMailbox(path.organization, path.agreementbot);
    const live = await readLiveMessages(box, isoTimestamp(deps.clock), readBounds(query));
    const body = messagesBody(live);
    if (body.messages.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
