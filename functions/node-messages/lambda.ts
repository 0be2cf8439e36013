import { dispatcher } from '#functions/dispatch';
import { handler as deleteNodeMessage } from './delete-message.ts';
import { handler as getNodeMessage } from './get-message.ts';
import { handler as listNodeMessages } from './list-messages.ts';
import { handler as postNodeMessage } from './post-message.ts';
import { nodeMessagesRoutes } from './routes.ts';

/** The node messages family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(nodeMessagesRoutes, {
  'node-messages/list-messages': listNodeMessages,
  'node-messages/post-message': postNodeMessage,
  'node-messages/get-message': getNodeMessage,
  'node-messages/delete-message': deleteNodeMessage,
});
