import { listMailbox, type Mailbox, type MailboxMessage } from '../mailbox/mailbox.ts';

/**
 * An agbot's mailbox (messages nodes send it): `AGBOT#<org>/<id>` / `MSG#<12-digit id>` and the
 * state item `MSGSEQ`. Every operation is the shared mailbox's (tables/mailbox*.ts).
 */
export const agbotMailbox = (org: string, id: string): Mailbox => ({ kind: 'agbot', org, id });

/** A message of an agbot's mailbox with upstream's field names. */
interface AgbotMessageRecord {
  msgId: number;
  nodeId: string;
  nodePubKey: string;
  message: string;
  timeSent: string;
  timeExpires: string;
  ttl: number;
}

const agbotMessageRecord = ({ senderId, senderPubKey, ...rest }: MailboxMessage): AgbotMessageRecord => ({
  ...rest,
  nodeId: senderId,
  nodePubKey: senderPubKey,
});

/** The agbot's whole mailbox, oldest first, expired messages included. */
export async function listMessages(org: string, id: string): Promise<AgbotMessageRecord[]> {
  return (await listMailbox(agbotMailbox(org, id))).map(agbotMessageRecord);
}
