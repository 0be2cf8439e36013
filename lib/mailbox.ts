import { HttpError } from '#lib/http/errors';
import { messageExpiry } from '#lib/message-ttl';
import { epochSeconds } from '#lib/time';
import { TTL_GRACE_SECONDS } from '#tables/mailbox';

/** What both mailboxes' POST handlers share: the message as stored, and the full-mailbox answer. */

/**
 * A full mailbox (`limits.maxMessagesInMailbox` unexpired messages): upstream's 502
 * `database-connection-error` with its text (exchange-behavior §14.8), which upstream's clients
 * treat as "try again later".
 */
export const mailboxFull = (owner: string, max: number) =>
  new HttpError(
    502,
    'database-connection-error',
    `Access Denied: the message mailbox of ${owner} is full (${max} messages)`,
  );

/** A message sent now with `ttl` seconds (cut to `maxTtlSeconds`), as the mailbox stores it. */
export function outgoingMessage(
  now: Date,
  body: { message: string; ttl: number },
  maxTtlSeconds: number,
  sender: { id: string; publicKey: string },
) {
  const expires = messageExpiry(now, body.ttl, maxTtlSeconds);
  return {
    senderId: sender.id,
    senderPubKey: sender.publicKey,
    message: body.message,
    timeSent: now.toISOString(),
    timeExpires: expires.toISOString(),
    ttl: epochSeconds(expires) + TTL_GRACE_SECONDS,
  };
}
