import { agbotId, agbotNotFound } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { mailboxFull, outgoingMessage, postLimits, senderShareFull } from '#lib/mailbox';
import { principalCache } from '#tables/identity/principals';
import { postMessage } from '#tables/mailbox/post';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeSender, readSender, type SenderTarget } from './shared/access.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/msgs: a node of an org the agbot may serve.
 * One transaction stores the message under the mailbox's next id, refuses a full mailbox
 * (`maxMessagesInMailbox` unexpired messages; 0 = unlimited) with upstream's 502 and a sender past
 * its share (`maxMessagesPerSender`, `maxMessageBytesPerSender`) with 429, and records the
 * `agbotmsgs` change. A `ttl` past `limits.maxMessageTtlSeconds` is cut to it. With the node's key
 * in its principal item (what authentication read), that is all it reads and writes but the
 * message's id (two calls); a key that changed meanwhile is read from the node, and the message
 * posted with it.
 */
export const handler = endpoint(agbotMessagesRoutes.operations.postAgbotMessage, {
  authorize: ({ caller, path }) => authorizeSender(caller, path),
  async handle({ caller, path, body, target, deps }) {
    const limits = deps.config().limits;
    const { maxMessageTtlSeconds, maxMessagesInMailbox: max } = limits;
    const now = deps.clock.now();
    const post = (to: SenderTarget) => {
      const sender = { id: caller.fullId, publicKey: to.nodePubKey };
      return postMessage({
        box: to.box,
        sender: { kind: 'node', org: caller.org, id: caller.id },
        message: outgoingMessage(now, body, maxMessageTtlSeconds, sender),
        limits: postLimits(limits),
        state: to.state,
        share: to.share,
        deleting: to.deleting,
        ...(to.keyFromAuth ? { senderKey: to.nodePubKey } : {}),
        now,
      });
    };
    let result = await post(target);
    if (result.outcome === 'sender-changed') {
      // This instance authenticated the node with a key it no longer holds: read its identity again next time.
      principalCache.forget(caller.org, caller.id);
      result = await post(await readSender(caller, path));
    }
    if (result.outcome === 'full') throw mailboxFull(agbotId(path), max);
    if (result.outcome === 'sender-full')
      throw senderShareFull(caller.fullId, agbotId(path), result.limit, limits);
    if (result.outcome !== 'stored') throw agbotNotFound(path);
    return ok(`agbot msg ${result.msgId} inserted`);
  },
});
