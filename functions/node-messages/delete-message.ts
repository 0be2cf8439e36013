import { endpoint } from '#functions/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { removeMessages, removeOwnMessage } from '#tables/mailbox/cleanup';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeMessageDelete } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/nodes/{node}/msgs/{msgid}: whoever may write the node (the node
 * after reading each message: one transaction, nothing read). 204, or 404 when the message is not
 * there (deleted already, a concurrent delete won, or an id such as -1 that never existed);
 * upstream answers 204 either way.
 */
export const handler = endpoint(nodeMessagesRoutes.operations.deleteNodeMessage, {
  authorize: ({ caller, path }) => authorizeNodeMessageDelete(caller, path),
  async handle({ path, target }) {
    const removed = target.byItsNode
      ? Number(await removeOwnMessage(target.box, path.msgid))
      : target.message
        ? await removeMessages(target.box, [target.message])
        : 0;
    if (removed === 0)
      throw notFound(`msg '${path.msgid}' for node '${path.organization}/${path.node}' not found`);
    return noContent();
  },
});
