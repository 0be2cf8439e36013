import * as z from 'zod';
import { agbotPath } from '#functions/agbots/schemas';
import { messageTtl } from '#lib/message-ttl';

/**
 * Schemas of an agbot's mailbox (contract "Agbot messages", reference §8.11): requests, validated
 * by the handlers, and responses, for the OpenAPI document.
 */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const isInt32 = (value: number | undefined) =>
  value === undefined || (value >= INT32_MIN && value <= INT32_MAX);

/** Largest message body: what still fits in one DynamoDB item beside the other fields. */
export const MAX_MESSAGE_BYTES = 300_000;

/** A message id in a path: a 32-bit integer, checked before authorization (400, as upstream). */
export const messageId = z
  .string()
  .regex(/^-?\d{1,10}$/, 'must be a 32-bit integer')
  .transform(Number)
  .refine(isInt32, 'must be a 32-bit integer');

export const messagesPath = agbotPath;
export const messagePath = agbotPath.extend({ message: messageId });
export type MessagePath = z.infer<typeof messagePath>;

/** `?maxmsgs=N`: the oldest N; absent, empty, 0 or negative = all (as upstream). */
export const listMessagesQuery = z.object({
  maxmsgs: z
    .string()
    .regex(/^(-?\d{1,10})?$/, 'must be a 32-bit integer')
    .transform((value) => (value === '' ? undefined : Number(value)))
    .refine(isInt32, 'must be a 32-bit integer')
    .optional(),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

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
export type PostMessageBody = z.infer<typeof postMessageBody>;

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
