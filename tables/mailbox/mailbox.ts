import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '#lib/time';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';

/**
 * The two mailboxes, one implementation (tables/README.md, "Mailboxes"): an agbot's (messages from
 * nodes, `AGBOT#<org>/<id>`) and a node's (messages from agbots, `NODE#<org>/<id>`). Each holds
 * its messages `MSG#<12-digit id>` and one state item `MSGSEQ` with the last id handed out (`seq`)
 * and how many places are taken (`storedMsgs`), both moved by one ADD before the transaction that
 * stores a message (tables/mailbox/post.ts): ids increase in the order they are taken and the
 * mailbox limit is a condition of that ADD, exact under concurrency. Each sender's share of the
 * mailbox (`msgs`, `bytes`) is one more item, `MSGFROM#<sender>`, moved in the storing
 * transaction, so one sender cannot fill someone else's mailbox (issue 23).
 */
type MailboxKind = 'agbot' | 'node';

export interface Mailbox {
  kind: MailboxKind;
  /** The owner's org and id: the agbot or the node the messages are addressed to. */
  org: string;
  id: string;
}

/** A stored message, whatever the mailbox (the views name the sender fields as upstream does). */
export interface MailboxMessage {
  msgId: number;
  /** `org/id` of the sender: a node for an agbot mailbox, an agbot for a node mailbox. */
  senderId: string;
  senderPubKey: string;
  message: string;
  timeSent: string;
  timeExpires: string;
  ttl: number;
  /** UTF-8 bytes of `message`: what it counts against its sender's share. */
  bytes: number;
}

/** What a removal needs to know of a message: its id, and what to give back to its sender's share. */
export type MessageRef = Pick<MailboxMessage, 'msgId' | 'senderId' | 'bytes'>;

/** Where the mailbox's items live, and how a message's sender is stored (upstream's field names). */
export const mailboxLayout = (box: Mailbox) =>
  box.kind === 'agbot'
    ? {
        owner: agbotKeys.record(box.org, box.id),
        state: agbotKeys.messageSeq(box.org, box.id),
        message: (msgId: number) => agbotKeys.message(box.org, box.id, msgId),
        share: (senderId: string) => ({
          pk: agbotKeys.record(box.org, box.id).pk,
          sk: `${SHARE_PREFIX}${senderId}`,
        }),
        senderField: 'nodeId',
        senderKeyField: 'nodePubKey',
        changeResource: 'agbotmsgs',
      }
    : {
        owner: nodeKeys.record(box.org, box.id),
        state: nodeKeys.messageSeq(box.org, box.id),
        message: (msgId: number) => nodeKeys.message(box.org, box.id, msgId),
        share: (senderId: string) => ({
          pk: nodeKeys.record(box.org, box.id).pk,
          sk: `${SHARE_PREFIX}${senderId}`,
        }),
        senderField: 'agbotId',
        senderKeyField: 'agbotPubKey',
        changeResource: 'nodemsgs',
      };

const MESSAGE_PREFIX = 'MSG#';
/** A sender's share item: `MSGFROM#<org>/<id>` (never matched by `begins_with(sk, MSG#)`). */
const SHARE_PREFIX = 'MSGFROM#';

/**
 * Past its expiry a message is never returned, and reads delete it (and take it out of the
 * mailbox's `storedMsgs`). DynamoDB's TTL deletes it without that, so `ttl` is set this much later:
 * it only sweeps mailboxes nobody has read for a day (a full mailbox recounts itself, see
 * `reconcileMailbox`). The org's counter follows either delete (tables/org/stream-counts.ts).
 */
const TTL_GRACE_SECONDS = 24 * 60 * 60;

/** The `ttl` attribute of a message that expires at `timeExpires` (ISO): its expiry plus the grace. */
export const messageTtlAttribute = (timeExpires: string): number =>
  epochSeconds(new Date(timeExpires)) + TTL_GRACE_SECONDS;

export const isLive = (message: { timeExpires: string }, now: string): boolean => message.timeExpires > now;

/**
 * `seq`: the last id handed out (0: none yet); `stored`: its `storedMsgs`, the message items present
 * and the places posts took for messages still on their way, undefined before this design; `recountedAt` / `nextExpiry`: when the last recount ran and the
 * earliest expiry it saw among the live messages (they decide whether a recount can free anything);
 * `placeTakenAt`: when a post last took a place.
 */
export interface MailboxState {
  seq: number;
  stored: number | undefined;
  recountedAt?: string;
  nextExpiry?: string;
  /** When a post last took a place (its message may not be written yet). */
  placeTakenAt?: string;
}

export const mailboxState = (item: Record<string, unknown> | undefined): MailboxState => ({
  seq: Number(item?.seq ?? 0),
  stored: item?.storedMsgs === undefined ? undefined : Number(item.storedMsgs),
  ...(typeof item?.recountedAt === 'string' ? { recountedAt: item.recountedAt } : {}),
  ...(typeof item?.nextExpiry === 'string' ? { nextExpiry: item.nextExpiry } : {}),
  ...(typeof item?.placeTakenAt === 'string' ? { placeTakenAt: item.placeTakenAt } : {}),
});

/** A sender's share of a mailbox: its message items there and their bytes (0, 0 when it has none). */
export interface SenderShare {
  msgs: number;
  bytes: number;
}

export const senderShare = (item: Record<string, unknown> | undefined): SenderShare => ({
  msgs: Number(item?.msgs ?? 0),
  bytes: Number(item?.bytes ?? 0),
});

/** A stored item as a message of this mailbox. */
function toMessage(box: Mailbox, item: Record<string, unknown>): MailboxMessage {
  const layout = mailboxLayout(box);
  return {
    msgId: Number(item.msgId),
    senderId: String(item[layout.senderField] ?? ''),
    senderPubKey: String(item[layout.senderKeyField] ?? ''),
    message: String(item.message ?? ''),
    timeSent: String(item.timeSent ?? ''),
    timeExpires: String(item.timeExpires ?? ''),
    ttl: Number(item.ttl ?? 0),
    bytes: item.bytes === undefined ? Buffer.byteLength(String(item.message ?? '')) : Number(item.bytes),
  };
}

/** A stored item as what its removal needs. */
export function toMessageRef(box: Mailbox, item: Record<string, unknown>): MessageRef {
  const { msgId, senderId, bytes } = toMessage(box, item);
  return { msgId, senderId, bytes };
}

/** The item storing `message` in `box`; a node message is also indexed under its sender (gsi1). */
export function messageItem(box: Mailbox, message: MailboxMessage): Record<string, unknown> {
  const layout = mailboxLayout(box);
  const item: Record<string, unknown> = {
    ...layout.message(message.msgId),
    org: box.org,
    id: box.id,
    msgId: message.msgId,
    [layout.senderField]: message.senderId,
    [layout.senderKeyField]: message.senderPubKey,
    message: message.message,
    timeSent: message.timeSent,
    timeExpires: message.timeExpires,
    ttl: message.ttl,
    bytes: message.bytes,
  };
  if (box.kind === 'node') {
    const [senderOrg = '', ...rest] = message.senderId.split('/');
    item.gsi1pk = agbotKeys.sentNodeMessagesIndex(senderOrg, rest.join('/'));
    item.gsi1sk = `${box.org}/${box.id}/${String(message.msgId).padStart(12, '0')}`;
  }
  return item;
}

/**
 * The whole mailbox, oldest first, expired messages included (one consistent Query; more pages
 * only past 1 MB). A plain Query: these items are written only by this module.
 */
export async function listMailbox(box: Mailbox): Promise<MailboxMessage[]> {
  return (await queryPrefix(box, MESSAGE_PREFIX)).map((item) => toMessage(box, item));
}

/** Every item of the mailbox owner's partition under `prefix` (consistent, every page). */
const queryPrefix = (box: Mailbox, prefix: string): Promise<Record<string, unknown>[]> =>
  queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': mailboxLayout(box).owner.pk, ':prefix': prefix },
    ConsistentRead: true,
  });

/**
 * One page of the mailbox, oldest first, expired messages included: one consistent Query of at
 * most `limit` messages, from past `startKey` (a previous page's end) or past message id `after`.
 */
export async function readMailboxPage(
  box: Mailbox,
  from: { after?: number; startKey?: Record<string, unknown> },
  limit: number,
): Promise<{ messages: MailboxMessage[]; next: Record<string, unknown> | undefined }> {
  const layout = mailboxLayout(box);
  const startKey = from.startKey ?? (from.after && from.after > 0 ? layout.message(from.after) : undefined);
  const page = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': layout.owner.pk, ':prefix': MESSAGE_PREFIX },
      ConsistentRead: true,
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { messages: (page.Items ?? []).map((item) => toMessage(box, item)), next: page.LastEvaluatedKey };
}

/** Every sender's share item of the mailbox (`MSGFROM#…`), by sender: the recount's read. */
export async function listShares(box: Mailbox): Promise<Map<string, SenderShare>> {
  const shares = new Map<string, SenderShare>();
  for (const item of await queryPrefix(box, SHARE_PREFIX))
    shares.set(String(item.sk).slice(SHARE_PREFIX.length), senderShare(item));
  return shares;
}

type Item = Record<string, unknown>;

/** The item of `found` at `key`, if any. */
export const itemAt = (found: Item[], key: { pk: string; sk: string }): Item | undefined =>
  found.find((item) => item.pk === key.pk && item.sk === key.sk);

export async function getMailboxMessage(box: Mailbox, msgId: number): Promise<MailboxMessage | undefined> {
  if (!(msgId > 0)) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: mailboxLayout(box).message(msgId), ConsistentRead: true }),
  );
  return Item ? toMessage(box, Item) : undefined;
}
