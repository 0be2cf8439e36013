import * as z from 'zod';
import { afterMessageId, messageId, postMessageBody } from '#functions/agbot-messages/shared/schemas';
import { nodePath } from '#functions/nodes/schemas';

/**
 * Schemas of a node's mailbox (docs/exchange.md#node-mailbox): requests, validated by the handlers, and
 * responses, for the OpenAPI document. Bodies and ids are the agbot mailbox's.
 */
export const nodeMessagesPath = nodePath;
export type NodeMessagesPath = z.infer<typeof nodeMessagesPath>;
export const nodeMessagePath = nodePath.extend({ msgid: messageId });
export type NodeMessagePath = z.infer<typeof nodeMessagePath>;

const INT32 = { min: -2147483648, max: 2147483647 };

/**
 * `?maxmsgs=N`: the oldest N, at most 100; absent, 0 or negative = 100 (upstream: all). Unlike the
 * agbot mailbox, `maxmsgs=` is a 400 (upstream). `?after=ID`: only messages with a larger id.
 */
export const listNodeMessagesQuery = z.object({
  after: afterMessageId,
  maxmsgs: z
    .string()
    .regex(/^-?\d{1,10}$/, 'must be a 32-bit integer')
    .transform(Number)
    .refine((value) => value >= INT32.min && value <= INT32.max, 'must be a 32-bit integer')
    .optional(),
});

export const postNodeMessageBody = postMessageBody;

/** One message as GET returns it. */
export const nodeMsg = z.object({
  msgId: z.number().int(),
  agbotId: z.string(),
  agbotPubKey: z.string(),
  message: z.string(),
  timeSent: z.string(),
  timeExpires: z.string(),
});

/** GET (list and one): oldest first, never an expired or deleted message; lastIndex is always 0. */
export const getNodeMsgsResponse = z.object({ messages: z.array(nodeMsg), lastIndex: z.number().int() });
