import type * as z from 'zod';
import type { MailboxMessage } from '#tables/mailbox/mailbox';
import type { agbotMsg, getAgbotMsgsResponse } from './schemas.ts';

/** A message as upstream returns it. */
export const messageView = (record: MailboxMessage): z.infer<typeof agbotMsg> => ({
  msgId: record.msgId,
  nodeId: record.senderId,
  nodePubKey: record.senderPubKey,
  message: record.message,
  timeSent: record.timeSent,
  timeExpires: record.timeExpires,
});

export const messagesBody = (records: MailboxMessage[]): z.infer<typeof getAgbotMsgsResponse> => ({
  messages: records.map(messageView),
  lastIndex: 0,
});
