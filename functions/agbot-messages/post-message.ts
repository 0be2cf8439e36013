import { agbotId, agbotNotFound } from '#functions/agbots/access';
import { endpoint } from '#lib/http/endpoint';
import { accessDenied } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { messageExpiry } from '#lib/message-ttl';
import { epochSeconds } from '#lib/time';
import {
  countLiveMessages,
  insertMessage,
  keepOrDiscardMessage,
  nextMessageId,
  TTL_GRACE_SECONDS,
} from '#tables/agbot-message-records';
import { authorizeSender } from './access.ts';
import { messagesPath, postMessageBody } from './schemas.ts';

/**
 * POST /v1/orgs/{organization}/agbots/{agreementbot}/msgs: any node. The id comes from the agbot's
 * atomic counter, then the message is stored under it. A full mailbox (`maxMessagesInMailbox`
 * unexpired messages; 0 = unlimited) answers 403 (upstream: 502). A `ttl` past
 * `limits.maxMessageTtlSeconds` is cut to it.
 */
export const handler = endpoint({
  path: messagesPath,
  body: postMessageBody,
  authorize: ({ caller, path }) => authorizeSender(caller, path),
  async handle({ caller, path, body, target, deps }) {
    const { organization: org, agreementbot: id } = path;
    const { maxMessageTtlSeconds, maxMessagesInMailbox } = deps.config().limits;
    const now = deps.clock.now();
    if (
      maxMessagesInMailbox > 0 &&
      (await countLiveMessages(org, id, now.toISOString())) >= maxMessagesInMailbox
    ) {
      throw accessDenied(
        `Access Denied: the message mailbox of ${agbotId(path)} is full (${maxMessagesInMailbox} messages)`,
      );
    }
    const msgId = await nextMessageId(org, id);
    const expires = messageExpiry(now, body.ttl, maxMessageTtlSeconds);
    await insertMessage({
      org,
      id,
      msgId,
      nodeId: caller.fullId,
      nodePubKey: target.nodePubKey,
      message: body.message,
      timeSent: now.toISOString(),
      timeExpires: expires.toISOString(),
      ttl: epochSeconds(expires) + TTL_GRACE_SECONDS,
    });
    if (!(await keepOrDiscardMessage(org, id, msgId))) throw agbotNotFound(path);
    return ok(`agbot msg ${msgId} inserted`);
  },
});
