import type * as z from 'zod';
import type { AgbotMessageRecord } from '#tables/agbot-message-records';
import type { agbotMsg, getAgbotMsgsResponse } from './schemas.ts';

/** A message as upstream returns it. */
export const messageView = (record: AgbotMessageRecord): z.infer<typeof agbotMsg> => ({
  msgId: record.msgId,
  nodeId: record.nodeId,
  nodePubKey: record.nodePubKey,
  message: record.message,
  timeSent: record.timeSent,
  timeExpires: record.timeExpires,
});

export const messagesBody = (records: AgbotMessageRecord[]): z.infer<typeof getAgbotMsgsResponse> => ({
  messages: records.map(messageView),
  lastIndex: 0,
});
