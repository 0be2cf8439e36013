import type { AgbotMessageRecord } from '#tables/agbot-message-records';

/** A message as upstream returns it. */
export const messageView = (record: AgbotMessageRecord) => ({
  msgId: record.msgId,
  nodeId: record.nodeId,
  nodePubKey: record.nodePubKey,
  message: record.message,
  timeSent: record.timeSent,
  timeExpires: record.timeExpires,
});

export const messagesBody = (records: AgbotMessageRecord[]) => ({
  messages: records.map(messageView),
  lastIndex: 0,
});
