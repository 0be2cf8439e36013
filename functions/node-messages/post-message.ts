import { endpoint } from '#functions/endpoint';
import { nodeNotFound, resourceId } from '#functions/nodes/access';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { mailboxFull, outgoingMessage, postLimits, senderShareFull } from '#lib/mailbox';
import { postMessage } from '#tables/mailbox/post';
import { nodeMessagesRoutes } from './routes.ts';
import { authorizeNodeSender, type NodeSenderTarget, readNodeSender } from './shared/access.ts';
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
    const post = (to: NodeSenderTarget) => {
      const sender = { id: caller.fullId, publicKey: to.agbotPubKey };
      return postMessage({
        box: to.box,
        sender: { kind: 'agbot', org: caller.org, id: caller.id },
        message: outgoingMessage(now, body, maxMessageTtlSeconds, sender),
        limits: postLimits(limits),
        state: to.state,
        share: to.share,
        deleting: to.deleting,
        ...(to.keyRemembered ? { senderKey: to.agbotPubKey } : {}),
        now,
      });
    };
    let result = await post(target);
    if (result.outcome === 'sender-changed') {
      forgetSenderKey(caller.fullId);
      result = await post(await readNodeSender(caller, path));
    }
    if (result.outcome === 'full') throw mailboxFull(resourceId(path), max);
    if (result.outcome === 'sender-full')
      throw senderShareFull(caller.fullId, resourceId(path), result.limit, limits);
    if (result.outcome === 'no-sender' || result.outcome === 'sender-changed')
      throw badInput(`Invalid Input: agbot ${caller.fullId} not found`);
    if (result.outcome === 'no-owner') throw nodeNotFound(path);
    return ok(`node msg ${result.msgId} inserted`);
  },
});
