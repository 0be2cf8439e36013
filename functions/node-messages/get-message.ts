import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { json } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { readLiveMessage } from '#tables/mailbox/cleanup';
import { nodeMailbox } from '#tables/node/message-records';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeMailbox } from './shared/access.ts';
import { nodeMessagesBody } from './shared/message-view.ts';

/**
 * GET /v1/orgs/{organization}/nodes/{node}/msgs/{msgid}: whoever may read the node. A non-integer
 * id is a 400 (before authorization, as for agbot messages); an expired or deleted message is a 404.
 */
export const handler = endpoint(nodeMessagesRoutes.operations.getNodeMessage, {
  authorize: ({ caller, path }) => authorizeNodeMailbox(caller, path, 'READ'),
  async handle({ path, deps }) {
    const box = nodeMailbox(path.organization, path.node);
    const found = await readLiveMessage(box, path.msgid, isoTimestamp(deps.clock));
    if (!found) throw notFound('not found');
    return json(200, nodeMessagesBody([found]));
  },
});
