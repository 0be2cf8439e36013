import { endpoint } from '#functions/endpoint';
import { noContent } from '#lib/http/responses';
import { removeMessages } from '#tables/mailbox-cleanup';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeMessageDelete } from './shared/access.ts';

/**
 * DELETE /v1/orgs/{organization}/nodes/{node}/msgs/{msgid}: whoever may write the node (the node
 * after reading each message). 204 whether or not the message was there, as upstream.
 */
export const handler = endpoint(nodeMessagesRoutes.operations.deleteNodeMessage, {
  authorize: ({ caller, path }) => authorizeNodeMessageDelete(caller, path),
  async handle({ target }) {
    if (target.message) await removeMessages(target.box, [target.message]);
    return noContent();
  },
});
