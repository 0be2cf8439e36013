import { agbotId, agbotNotFound } from '#functions/agbots/shared/access';
import { endpoint } from '#functions/endpoint';
import { ok } from '#lib/http/responses';
import { mailboxFull, outgoingMessage, postLimits, senderShareFull } from '#lib/mailbox';
import { postMessage } from '#tables/mailbox/post';
import { agbotMessagesRoutes } from './routes.ts';
import { authorizeSender } from './shared/access.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/msgs: a node of an org the agbot may serve.
 * One transaction stores the message under the mailbox's next id, refuses a full mailbox
 * (`maxMessagesInMailbox` unexpired messages; 0 = unlimited) with upstream's 502 and a sender past
 * its share (`maxMessagesPerSender`, `maxMessageBytesPerSender`) with 429, and records the
 * `agbotmsgs` change. A `ttl` past `limits.maxMessageTtlSeconds` is cut to it.
 */
export const handler = endpoint(agbotMessagesRoutes.operations.postAgbotMessage, {
  authorize: ({ caller, path }) => authorizeSender(caller, path),
  async handle({ caller, path, body, target, deps }) {
    const limits = deps.config().limits;
    const { maxMessageTtlSeconds, maxMessagesInMailbox: max } = limits;
    const now = deps.clock.now();
    const sender = { id: caller.fullId, publicKey: target.nodePubKey };
    const message = outgoingMessage(now, body, maxMessageTtlSeconds, sender);
    const result = await postMessage({
      box: target.box,
      sender: { kind: 'node', org: caller.org, id: caller.id },
      message,
      limits: postLimits(limits),
      state: target.state,
      share: target.share,
      deleting: target.deleting,
      now,
    });
    if (result.outcome === 'full') throw mailboxFull(agbotId(path), max);
    if (result.outcome === 'sender-full')
      throw senderShareFull(caller.fullId, agbotId(path), result.limit, limits);
    if (result.outcome !== 'stored') throw agbotNotFound(path);
    return ok(`agbot msg ${result.msgId} inserted`);
  },
});
