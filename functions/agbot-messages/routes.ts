import { emptyListOrError, errors, okResponse } from '#lib/openapi/common';
import { routeList } from '#lib/openapi/route';
import {
  agbotMsg,
  getAgbotMsgsResponse,
  listMessagesQuery,
  messagePath,
  messagesPath,
  postMessageBody,
} from './shared/schemas.ts';

const readers = 'Users of the org, hub admins, root and the agbot itself (nodes, other agbots: 403).';

/** An agbot's mailbox (docs/exchange.md#agbot-mailbox). */
export const agbotMessagesRoutes = routeList({
  folder: 'agbot-messages',
  mounts: [
    '/v1/orgs/{organization}/agbots/{agreementbot}/msgs',
    '/v1/orgs/{organization}/agbots/{agreementbot}/msgs/{proxy+}',
  ],
  tag: 'agbot messages',
  description: 'Messages nodes send to an agbot; expired or deleted messages are never returned',
  components: { AgbotMsg: agbotMsg, GetAgbotMsgsResponse: getAgbotMsgsResponse },
  requests: { PostAgbotMsgRequest: postMessageBody },
  routes: [
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/msgs',
      operationId: 'listAgbotMessages',
      handler: () => import('./list-messages.ts'),
      summary: "The agbot's unexpired messages, oldest first",
      description: `${readers} \`maxmsgs=N\` returns the oldest N (absent, empty or ≤ 0: all).`,
      request: { path: messagesPath, query: listMessagesQuery },
      responses: {
        200: { description: 'the messages in the order sent', schema: getAgbotMsgsResponse },
        ...errors(400, 401, 403),
        404: emptyListOrError(getAgbotMsgsResponse),
      },
    },
    {
      method: 'POST',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/msgs',
      operationId: 'postAgbotMessage',
      handler: () => import('./post-message.ts'),
      summary: 'Send a message to the agbot',
      description:
        'Any node with a public key, of any org. `ttl` in seconds, at least 1; a longer one than the ' +
        'server setting `limits.maxMessageTtlSeconds` is cut to it. Records an `agbotmsgs` change for the ' +
        'agbot. A full mailbox (`limits.maxMessagesInMailbox`) is a 502 `database-connection-error`, as upstream.',
      request: { path: messagesPath, body: postMessageBody },
      responses: {
        201: okResponse('stored; the message names its id'),
        ...errors(400, 401, 403, 404, 502),
      },
    },
    {
      method: 'GET',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}',
      operationId: 'getAgbotMessage',
      handler: () => import('./get-message.ts'),
      summary: 'One unexpired message',
      description: `${readers} A non-integer id is a 400 before authorization.`,
      request: { path: messagePath },
      responses: {
        200: { description: 'the message, alone in the list', schema: getAgbotMsgsResponse },
        ...errors(400, 401, 403, 404),
      },
    },
    {
      method: 'DELETE',
      path: '/v1/orgs/{organization}/agbots/{agreementbot}/msgs/{message}',
      operationId: 'deleteAgbotMessage',
      handler: () => import('./delete-message.ts'),
      summary: 'Delete a message',
      description:
        'Its owner, org admins, hub admins, root, the agbot itself. 204 even when it was not there.',
      request: { path: messagePath },
      responses: { 204: { description: 'deleted (or never there)' }, ...errors(400, 401, 403, 404) },
    },
  ],
});
