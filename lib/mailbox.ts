import { IBM_ORG } from '#lib/auth/caller';
import { HttpError } from '#lib/http/errors';
import { messageExpiry } from '#lib/message-ttl';

/** What both mailboxes' handlers share: who may write to whom, the message as stored, the limits' answers. */

/**
 * Messages go only between parties the agreement protocol needs (issue 23): an agbot and the nodes
 * of an org it may serve, i.e. its own org's nodes, or any org's for a multi-tenant agbot (org
 * IBM, created and given what to serve only by root and hub admins). Both directions use this rule.
 */
export const mayExchangeMessages = (agbotOrg: string, nodeOrg: string): boolean =>
  agbotOrg === nodeOrg || agbotOrg === IBM_ORG;

/**
 * A full mailbox (`limits.maxMessagesInMailbox` unexpired messages): upstream's 502
 * `database-connection-error` with its text (docs/exchange.md#agbot-mailbox), which upstream's clients
 * treat as "try again later".
 */
export const mailboxFull = (owner: string, max: number) =>
  new HttpError(
    502,
    'database-connection-error',
    `Access Denied: the message mailbox of ${owner} is full (${max} messages)`,
  );

/**
 * A sender that holds its whole share of someone else's mailbox (`limits.maxMessagesPerSender`
 * messages or `limits.maxMessageBytesPerSender` bytes): 429, until the owner reads and deletes them
 * or they expire.
 */
export const senderShareFull = (
  sender: string,
  owner: string,
  limit: 'messages' | 'bytes',
  limits: { maxMessagesPerSender: number; maxMessageBytesPerSender: number },
) =>
  new HttpError(
    429,
    'access-denied',
    limit === 'messages'
      ? `Access Denied: ${sender} already has ${limits.maxMessagesPerSender} messages in the mailbox of ${owner} (limits.maxMessagesPerSender); try again once they are read`
      : `Access Denied: this message would take ${sender}'s messages in the mailbox of ${owner} past ${limits.maxMessageBytesPerSender} bytes (limits.maxMessageBytesPerSender); try again once they are read`,
  );

/** The limits a POST is held to (0 = unlimited). */
export interface PostLimits {
  /** `maxMessagesInMailbox`: unexpired messages in the mailbox. */
  max: number;
  /** `maxMessagesPerSender` / `maxMessageBytesPerSender`: the sender's share of the mailbox. */
  perSender: { msgs: number; bytes: number };
}

/** The limits a POST is held to, from the settings. */
export const postLimits = (limits: {
  maxMessagesInMailbox: number;
  maxMessagesPerSender: number;
  maxMessageBytesPerSender: number;
}): PostLimits => ({
  max: limits.maxMessagesInMailbox,
  perSender: { msgs: limits.maxMessagesPerSender, bytes: limits.maxMessageBytesPerSender },
});

/** Most messages one list read returns (`maxmsgs` above it, absent or ≤ 0 means this many). */
export const MAX_MESSAGES_PER_READ = 100;
/** Most bytes of messages one list read returns (at least one message): well under Lambda's 6 MB answer. */
export const READ_BUDGET_BYTES = 2_000_000;

/** How much one read returns: at most `max` messages, and no more than `budgetBytes` of JSON (one message at least). */
export interface ReadBounds {
  max: number;
  budgetBytes: number;
  /** Only messages with a larger id (the reader's last page ended there). */
  after?: number;
}

/** A list read's bounds from its `maxmsgs` and `after` queries. */
export const readBounds = (query: {
  maxmsgs?: number | undefined;
  after?: number | undefined;
}): ReadBounds => ({
  max:
    query.maxmsgs !== undefined && query.maxmsgs > 0
      ? Math.min(query.maxmsgs, MAX_MESSAGES_PER_READ)
      : MAX_MESSAGES_PER_READ,
  budgetBytes: READ_BUDGET_BYTES,
  ...(query.after !== undefined && query.after > 0 ? { after: query.after } : {}),
});

/**
 * A message sent now with `ttl` seconds (cut to `maxTtlSeconds`), as the mailbox stores it (the
 * table adds its id and when DynamoDB may delete it).
 */
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
    bytes: Buffer.byteLength(body.message),
  };
}
