import { endpoint } from '#functions/endpoint';
import { nodeNotFound, resourceId } from '#functions/nodes/access';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { mailboxFull, outgoingMessage, postLimits, senderShareFull } from '#lib/mailbox';
import { postToTarget } from '#tables/mailbox/post';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeSender, readNodeSender } from './shared/access.ts';
import { forgetSenderKey } from './shared/sender-keys.ts';

/**
 * POST /v1/orgs/{organization}/nodes/{node}/msgs: an agbot with a public key that may serve the
 * node's org. One transaction stores the message under the node mailbox's next id, refuses a full
 * mailbox (`maxMessagesInMailbox` unexpired messages; 0 = unlimited) with upstream's 502 and a
 * sender past its share (`maxMessagesPerSender`, `maxMessageBytesPerSender`) with 429, and
 * records the `nodemsgs` change the node sees in its feed. With the agbot's key remembered, that
 * is all it reads and writes but the message's id (two calls); a key that changed meanwhile is
 * read again, and the message posted with it.
 */
export const handler = endpoint(nodeMessagesRoutes.operations.postNodeMessage, {
  authorize: ({ caller, path }) => authorizeNodeSender(caller, path),
  async handle({ caller, path, body, target, deps }) {
    const limits = deps.config().limits;
    const { maxMessageTtlSeconds, maxMessagesInMailbox: max } = limits;
    const now = deps.clock.now();
    const result = await postToTarget(
      target,
      {
        sender: { kind: 'agbot', org: caller.org, id: caller.id },
        message: (publicKey) =>
          outgoingMessage(now, body, maxMessageTtlSeconds, { id: caller.fullId, publicKey }),
        limits: postLimits(limits),
        now,
      },
      { forget: () => forgetSenderKey(caller.fullId), read: () => readNodeSender(caller, path) },
    );
    if (result.outcome === 'full') throw mailboxFull(resourceId(path), max);
    if (result.outcome === 'sender-full')
      throw senderShareFull(caller.fullId, resourceId(path), result.limit, limits);
    if (result.outcome === 'no-sender' || result.outcome === 'sender-changed')
      throw badInput(`Invalid Input: agbot ${caller.fullId} not found`);
    if (result.outcome === 'no-owner') throw nodeNotFound(path);
    return ok(`node msg ${result.msgId} inserted`);
  },
});
