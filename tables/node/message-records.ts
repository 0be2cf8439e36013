import { listMailbox, type Mailbox, type MailboxMessage } from '../mailbox/mailbox.ts';

/**
 * A node's mailbox (messages agbots send it): `NODE#<org>/<id>` / `MSG#<12-digit id>` and the
 * state item `MSGSEQ`, in the node's partition so they go with the node. Every operation is the
 * shared mailbox's (tables/mailbox*.ts).
 */
export const nodeMailbox = (org: string, id: string): Mailbox => ({ kind: 'node', org, id });

/** A message of a node's mailbox with upstream's field names. */
interface NodeMessageRecord {
  msgId: number;
  agbotId: string;
  agbotPubKey: string;
  message: string;
  timeSent: string;
  timeExpires: string;
  ttl: number;
}

const nodeMessageRecord = ({ senderId, senderPubKey, ...rest }: MailboxMessage): NodeMessageRecord => ({
  ...rest,
  agbotId: senderId,
  agbotPubKey: senderPubKey,
});

/** The node's whole mailbox, oldest first, expired messages included. */
export async function listNodeMessages(org: string, id: string): Promise<NodeMessageRecord[]> {
  return (await listMailbox(nodeMailbox(org, id))).map(nodeMessageRecord);
}
