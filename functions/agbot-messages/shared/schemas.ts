import * as z from 'zod';
import { agbotPath } from '#functions/agbots/shared/schemas';
import { MAX_MESSAGE_BYTES } from '#lib/config';
import { messageTtl } from '#lib/message-ttl';

/**
 * Schemas of an agbot's mailbox (docs/exchange.md#agbot-mailbox): requests, validated
 * by the handlers, and responses, for the OpenAPI document.
 */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const isInt32 = (value: number | undefined) =>
  value === undefined || (value >= INT32_MIN && value <= INT32_MAX);

/** A message id in a path: a 32-bit integer, checked before authorization (400, as upstream). */
export const messageId = z
  .string()
  .regex(/^-?\d{1,10}$/, 'must be a 32-bit integer')
  .transform(Number)
  .refine(isInt32, 'must be a 32-bit integer');

export const messagesPath = agbotPath;
export const messagePath = agbotPath.extend({ message: messageId });
export type MessagePath = z.infer<typeof messagePath>;

/**
 * `?after=ID` (not upstream's): only messages with a larger id, so a reader that leaves some
 * messages in its mailbox can still read the ones behind them. Empty = absent.
 */
export const afterMessageId = z
  .string()
  .regex(/^\d{0,10}$/, 'must be a message id (a non-negative 32-bit integer)')
  .transform((value) => (value === '' ? undefined : Number(value)))
  .refine(isInt32, 'must be a message id (a non-negative 32-bit integer)')
  .optional();

/** `?maxmsgs=N`: the oldest N, at most 100; absent, empty, 0 or negative = 100 (upstream: all). `?after=ID`: see above. */
export const listMessagesQuery = z.object({
  after: afterMessageId,
  maxmsgs: z
    .string()
    .regex(/^(-?\d{1,10})?$/, 'must be a 32-bit integer')
    .transform((value) => (value === '' ? undefined : Number(value)))
    .refine(isInt32, 'must be a 32-bit integer')
    .optional(),
});

/**
 * POST body. `ttl` is in seconds, at least 1; the handler cuts it to the server setting
 * `limits.maxMessageTtlSeconds` (default 8,640,000, 100 days).
 */
export const postMessageBody = z.strictObject({
  message: z
    .string()
    .min(1, 'must not be empty')
    .refine((text) => Buffer.byteLength(text) <= MAX_MESSAGE_BYTES, {
      message: `must be at most ${MAX_MESSAGE_BYTES} bytes`,
    }),
  ttl: messageTtl,
});

/** One message as GET returns it. */
export const agbotMsg = z.object({
  msgId: z.number().int(),
  nodeId: z.string(),
  nodePubKey: z.string(),
  message: z.string(),
  timeSent: z.string(),
  timeExpires: z.string(),
});

/** GET (list and one): oldest first, never an expired or deleted message; lastIndex is always 0. */
export const getAgbotMsgsResponse = z.object({ messages: z.array(agbotMsg), lastIndex: z.number().int() });
