import { endpoint } from '#lib/http/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { deleteMessages, isLive, listMessages } from '#tables/agbot-message-records';
import { authorizeMailboxReader } from './access.ts';
import { messagesBody } from './message-view.ts';
import { listMessagesQuery, messagesPath } from './schemas.ts';

/**
 * GET /v1/orgs/{organization}/agbots/{agreementbot}/msgs[?maxmsgs=N]: a user or the agbot. Oldest
 * first; expired messages are never returned, and this read deletes them. None → 404 `[]`.
 */
export const handler = endpoint({
  path: messagesPath,
  query: listMessagesQuery,
  authorize: ({ caller, path }) => authorizeMailboxReader(caller, path),
  async handle({ path, query, deps }) {
    const now = isoTimestamp(deps.clock);
    const mailbox = await listMessages(path.organization, path.agreementbot);
    const live = mailbox.filter((message) => isLive(message, now));
    if (live.length < mailbox.length) {
      const expired = mailbox.filter((message) => !isLive(message, now)).map((message) => message.msgId);
      await deleteMessages(path.organization, path.agreementbot, expired);
    }
    const max = query.maxmsgs !== undefined && query.maxmsgs > 0 ? query.maxmsgs : live.length;
    const body = messagesBody(live.slice(0, max));
    if (body.messages.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
