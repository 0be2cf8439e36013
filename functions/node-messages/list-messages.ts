import { endpoint } from '#functions/endpoint';
import { emptyList } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { readBounds } from '#lib/mailbox';
import { isoTimestamp } from '#lib/time';
import { readLiveMessages } from '#tables/mailbox/cleanup';
import { nodeMailbox } from '#tables/node/message-records';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeMailbox } from './shared/access.ts';
import { nodeMessagesBody } from './shared/message-view.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/msgs[?maxmsgs=N][&after=ID]: whoever may read the node.
 * Oldest first, at most 100 messages and about 2 MB (a page: read the next with `after` = its last
 * id); expired messages are never returned, and this read deletes them. None → 404 `[]`.
 */
export const handler = endpoint(nodeMessagesRoutes.operations.listNodeMessages, {
  authorize: ({ caller, path }) => authorizeNodeMailbox(caller, path, 'READ'),
  async handle({ path, query, deps }) {
    const box = nodeMailbox(path.organization, path.node);
    const live = await readLiveMessages(box, isoTimestamp(deps.clock), readBounds(query));
    const body = nodeMessagesBody(live);
    if (body.messages.length === 0) throw emptyList(body);
    return json(200, body);
  },
});
