import { endpoint } from '#lib/http/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { readLiveMessages } from '#tables/mailbox-cleanup';
import { nodeMailbox } from '#tables/node-message-records';
import { authorizeNodeMailbox } from './access.ts';
import { nodeMessagesBody } from './message-view.ts';
import { listNodeMessagesQuery, nodeMessagesPath } from './schemas.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/msgs[?maxmsgs=N]: whoever may read the node. Oldest
 * first; expired messages are never returned, and this read deletes them. None → 404 `[]`.
 */
export const handler = endpoint({
  path: nodeMessagesPath,
  query: listNodeMessagesQuery,
  authorize: ({ caller, path }) => authorizeNodeMailbox(caller, path, 'READ'),
  async handle({ path, query, deps }) {
    const box = nodeMailbox(path.organization, path.node);
    const live = await readLiveMessages(box, isoTimestamp(deps.clock), Math.max(0, query.maxmsgs ?? 0));
    const body = nodeMessagesBody(live);
    if (body.messages.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
