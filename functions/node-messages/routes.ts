import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  getNodeMsgsResponse,
  listNodeMessagesQuery,
  nodeMessagePath,
  nodeMessagesPath,
  nodeMsg,
  postNodeMessageBody,
} from './shared/schemas.ts';

const readers =
  'Whoever may read the node: the node itself, its owner, org admins, root, agbots of its org (other nodes, other users, hub admins: 403).';

/** A node's mailbox (docs/exchange.md#node-mailbox): messages agbots send to the node. */
export const nodeMessagesRoutes = routeList({
  folder: 'node-messages',
  mounts: ['/v1/orgs/{organization}/nodes/{node}/msgs', '/v1/orgs/{organization}/nodes/{node}/msgs/{proxy+}'],
  tag: 'node messages',
  description: 'Messages agbots send to a node; expired or deleted messages are never returned',
  components: { NodeMsg: nodeMsg, GetNodeMsgsResponse: getNodeMsgsResponse },
  requests: { PostNodeMsgRequest: postNodeMessageBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/msgs',
      operationId: 'listNodeMessages',
      handler: () => import('./list-messages.ts'),
      summary: "The node's unexpired messages, oldest first",
      description: `${readers} \`maxmsgs=N\` returns the oldest N (absent, 0 or negative: all; empty: 400, as upstream).`,
      request: { path: nodeMessagesPath, query: listNodeMessagesQuery },
      responses: {
        200: { description: 'the messages in the order sent', schema: getNodeMsgsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getNodeMsgsResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/nodes/{node}/msgs',
      operationId: 'postNodeMessage',
      handler: () => import('./post-message.ts'),
      summary: 'Send a message to the node',
      description:
        'Any agbot with a public key, of any org. `ttl` in seconds, at least 1; a longer one than the ' +
        'server setting `limits.maxMessageTtlSeconds` is cut to it. Records a `nodemsgs` change for the ' +
        'node. A full mailbox (`limits.maxMessagesInMailbox`) is a 502 `database-connection-error`, as upstream.',
      request: { path: nodeMessagesPath, body: postNodeMessageBody },
      responses: {
        201: okResponse('stored; the message names its id'),
        ...errors(400, 401, 403, 404, 502),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/nodes/{node}/msgs/{msgid}',
      operationId: 'getNodeMessage',
      handler: () => import('./get-message.ts'),
      summary: 'One unexpired message',
      description: `${readers} A non-integer id is a 400.`,
      request: { path: nodeMessagePath },
      responses: {
        200: { description: 'the message, alone in the list', schema: getNodeMsgsResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/nodes/{node}/msgs/{msgid}',
      operationId: 'deleteNodeMessage',
      handler: () => import('./delete-message.ts'),
      summary: 'Delete a message',
      description:
        'The node itself (after reading each message), its owner, org admins, root. 204 even when it was not there.',
      request: { path: nodeMessagePath },
      responses: { 204: { description: 'deleted (or never there)' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
