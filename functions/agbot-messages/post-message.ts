import { agbotId, agbotNotFound } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { mailboxFull, outgoingMessage, postLimits, senderShareFull } from '#lib/mailbox';
import { principalCache } from '#tables/identity/principals';
import { postToTarget } from '#tables/mailbox/post';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeSender, readSender } from './shared/access.ts';

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
    const result = await postToTarget(
      target,
      {
        sender: { kind: 'node', org: caller.org, id: caller.id },
        message: (publicKey) =>
          outgoingMessage(now, body, maxMessageTtlSeconds, { id: caller.fullId, publicKey }),
        limits: postLimits(limits),
        now,
      },
      {
        // This instance authenticated the node with a key it no longer holds: read its identity again next time.
        forget: () => principalCache.forget(caller.org, caller.id),
        read: () => readSender(caller, path),
      },
    );
    if (result.outcome === 'full') throw mailboxFull(agbotId(path), max);
    if (result.outcome === 'sender-full')
      throw senderShareFull(caller.fullId, agbotId(path), result.limit, limits);
    if (result.outcome !== 'stored') throw agbotNotFound(path);
    return ok(`agbot msg ${result.msgId} inserted`);
  },
});
