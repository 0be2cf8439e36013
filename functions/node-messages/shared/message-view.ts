import type * as z from 'zod';
import type { MailboxMessage } from '#tables/mailbox/mailbox';
import type { getNodeMsgsResponse, nodeMsg } from './schemas.ts';

/** A message as upstream returns it. */
export const nodeMessageView = (record: MailboxMessage): z.infer<typeof nodeMsg> => ({
  msgId: record.msgId,
  agbotId: record.senderId,
  agbotPubKey: record.senderPubKey,
  message: record.message,
  timeSent: record.timeSent,
  timeExpires: record.timeExpires,
});

export const nodeMessagesBody = (records: MailboxMessage[]): z.infer<typeof getNodeMsgsResponse> => ({
  messages: records.map(nodeMessageView),
  lastIndex: 0,
});
