import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ReadBounds } from '#lib/mailbox';
import { documentClient, tableName } from '../client.ts';
import { batchGet } from '../kernel/batch-get.ts';
import { queryAll } from '../kernel/query-all.ts';
import { retryOnConflict } from '../kernel/retry-on-conflict.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import {
  getMailboxMessage,
  isLive,
  itemAt,
  listMailbox,
  listShares,
  type Mailbox,
  type MailboxMessage,
  type MailboxState,
  type MessageRef,
  mailboxLayout,
  mailboxState,
  readMailboxPage,
  type SenderShare,
  senderShare,
  toMessageRef,
} from './mailbox.ts';

/** Deletes per transaction: with the state update and one share update per sender, within DynamoDB's 100 items. */
const CHUNK = 49;

/** The share updates giving back what `messages` took of each sender's share. */
function shareGivebacks(messages: MessageRef[]): Map<string, SenderShare> {
  const bySender = new Map<string, SenderShare>();
  for (const { senderId, bytes } of messages) {
    const share = bySender.get(senderId) ?? { msgs: 0, bytes: 0 };
    bySender.set(senderId, { msgs: share.msgs + 1, bytes: share.bytes + bytes });
  }
  return bySender;
}

/**
 * Deletes messages of a mailbox and takes them out of its `storedMsgs` count and out of their
 * senders' shares in the same transaction, each only if it is still there, so a message two
 * requests delete at once is uncounted once (the org's counter follows from the table's stream,
 * tables/org/stream-counts.ts). Resolves how many this call deleted. Without `giveSharesBack`
 * (removeOwnMessage) the shares are left as they are, and the messages need only their ids.
 */
export async function removeMessages(
  box: Mailbox,
  messages: MessageRef[],
  options: { giveSharesBack?: boolean } = {},
): Promise<number> {
  const giveSharesBack = options.giveSharesBack ?? true;
  const layout = mailboxLayout(box);
  let removed = 0;
  // Shares that are not there, or hold less than their messages (written before shares existed).
  const uncounted = new Set<string>();
  for (let i = 0; i < messages.length; i += CHUNK) {
    let chunk = messages.slice(i, i + CHUNK).filter((message) => message.msgId > 0);
    let withState = true;
    while (chunk.length > 0) {
      const deletes: TransactItem[] = chunk.map(({ msgId }) => ({
        Delete: {
          TableName: tableName(),
          Key: layout.message(msgId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      }));
      const state: TransactItem = {
        Update: {
          TableName: tableName(),
          Key: layout.state,
          UpdateExpression: 'ADD storedMsgs :minus',
          ConditionExpression: 'attribute_exists(storedMsgs)',
          ExpressionAttributeValues: { ':minus': -chunk.length },
        },
      };
      const givebacks = giveSharesBack
        ? [...shareGivebacks(chunk)].filter(([senderId]) => !uncounted.has(senderId))
        : [];
      const shares: TransactItem[] = givebacks.map(([senderId, share]) => ({
        Update: {
          TableName: tableName(),
          Key: layout.share(senderId),
          UpdateExpression: 'ADD msgs :minusMsgs, #bytes :minusBytes',
          ConditionExpression: 'msgs >= :msgs AND #bytes >= :bytes',
          ExpressionAttributeNames: { '#bytes': 'bytes' },
          ExpressionAttributeValues: {
            ':minusMsgs': -share.msgs,
            ':minusBytes': -share.bytes,
            ':msgs': share.msgs,
            ':bytes': share.bytes,
          },
        },
      }));
      try {
        await transactWrite([...deletes, ...(withState ? [state] : []), ...shares]);
        removed += chunk.length;
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // A state item without `storedMsgs` (written before it existed, or gone with its owner) is
        // left alone: the next post counts the mailbox. So is a share that cannot give back (the
        // recount corrects it).
        const offset = chunk.length + (withState ? 1 : 0);
        if (withState && error.failed[chunk.length]) withState = false;
        givebacks.forEach(([senderId], index) => {
          if (error.failed[offset + index]) uncounted.add(senderId);
        });
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
  return removed;
}

/**
 * A node deleting a message of its own mailbox (the agent, after handling it), without reading it
 * first: ONE transaction deletes the message (if present) and takes it out of `storedMsgs`. Its
 * sender's share is not given back, so the shares of a node's mailbox are upper bounds; a post
 * whose share looks full has the mailbox recounted first (`reconcileMailbox`: at once when the
 * share claims more messages than the mailbox holds), which makes them exact. Resolves whether
 * the message was there.
 */
export async function removeOwnMessage(box: Mailbox, msgId: number): Promise<boolean> {
  const removed = await removeMessages(box, [{ msgId, senderId: '', bytes: 0 }], { giveSharesBack: false });
  return removed > 0;
}

/** A recount is needed at most once a minute, unless a message it counted has expired since. */
const RECOUNT_INTERVAL_MS = 60_000;

/**
 * Whether a share claims more messages than the whole mailbox holds: it was not given back for
 * messages its owner deleted (removeOwnMessage), so a recount is due whatever its time.
 */
const staleShare = (state: MailboxState, share: SenderShare | undefined): boolean =>
  share !== undefined && state.stored !== undefined && share.msgs > state.stored;

const recountDue = (state: MailboxState, now: Date, share?: SenderShare): boolean =>
  state.stored === undefined ||
  state.recountedAt === undefined ||
  staleShare(state, share) ||
  (state.nextExpiry !== undefined && state.nextExpiry <= now.toISOString()) ||
  now.getTime() - Date.parse(state.recountedAt) >= RECOUNT_INTERVAL_MS;

/**
 * Makes `storedMsgs` and the senders' shares exact again and drops expired messages: the path of a
 * full mailbox or share (and, once, of a mailbox written before `storedMsgs` existed). Reads the
 * state and the shares, then the messages, deletes the expired ones, sets each share to what its
 * sender's live messages hold if that share did not move meanwhile, and sets `storedMsgs` to the
 * live count only if no post or delete moved the state meanwhile (else it tries again, a few
 * times), and no post took a place in the last PLACE_HELD_MS (its message may not be written
 * yet: then only the deleted ones are uncounted). This also repairs what DynamoDB's TTL deleted
 * without uncounting. One request at a time recounts a mailbox, at most once a minute unless a
 * message it counted has expired since: it first claims the recount (`recountedAt`, `nextExpiry`,
 * a conditional write), so senders knocking on a full mailbox do not each make it read the whole
 * mailbox. Resolves the state and `senderId`'s share.
 */
export async function reconcileMailbox(
  box: Mailbox,
  now: Date,
  senderId?: string,
  /** The state and share the caller just read: when no recount is due, they are the answer (no read). */
  known?: { state: MailboxState; share: SenderShare },
): Promise<{ state: MailboxState; share: SenderShare }> {
  if (known && !recountDue(known.state, now, known.share)) return known;
  const first = await readStateAndShare(box, senderId);
  const stale = senderId !== undefined && staleShare(first.state, first.share);
  if (
    !recountDue(first.state, now, stale ? first.share : undefined) ||
    !(await claimRecount(box, now, stale))
  )
    return first;
  const iso = now.toISOString();
  for (let attempt = 0; attempt < RECOUNT_ATTEMPTS; attempt++) {
    const { state } = attempt === 0 ? first : await readStateAndShare(box, senderId);
    const shares = await listShares(box);
    const messages = await listMailbox(box);
    const expired = messages.filter((message) => !isLive(message, iso));
    const live = messages.filter((message) => isLive(message, iso));
    const gone = await Promise.all(expired.map((message) => deleteIfPresent(box, message.msgId)));
    const liveShares = shareGivebacks(live);
    await Promise.all(
      [...shares].map(([sender, stored]) => setShare(box, sender, stored, liveShares.get(sender))),
    );
    const nextExpiry = live.map((message) => message.timeExpires).sort()[0];
    if (placesMayBeHeld(state, now)) {
      // A post took a place lately and its message may still be on its way: the live count would
      // miss it and let one message too many in. Only what this recount deleted is uncounted;
      // what TTL deleted is counted again once no post has taken a place for PLACE_HELD_MS.
      await uncountDeleted(box, gone.filter(Boolean).length, nextExpiry);
      return readStateAndShare(box, senderId);
    }
    const counted = { seq: state.seq, stored: live.length, recountedAt: iso, nextExpiry };
    if (await setStored(box, state, counted)) {
      return { state: counted, share: (senderId && liveShares.get(senderId)) || { msgs: 0, bytes: 0 } };
    }
  }
  // Posts and deletes kept moving the counts: they stay as they are until the next recount.
  return readStateAndShare(box, senderId);
}

const RECOUNT_ATTEMPTS = 3;

/**
 * How long a post may hold a place before its message is written or the place given back: longer
 * than a request can run (the API's 29 s). A post cut off meanwhile leaves its place counted,
 * which the next recount after this long gives back.
 */
const PLACE_HELD_MS = 30_000;

const placesMayBeHeld = (state: MailboxState, now: Date): boolean =>
  state.stored !== undefined &&
  state.placeTakenAt !== undefined &&
  now.getTime() - Date.parse(state.placeTakenAt) < PLACE_HELD_MS;

/** `storedMsgs` less the messages a recount deleted itself (expired ones), and the earliest expiry it saw. */
async function uncountDeleted(box: Mailbox, deleted: number, nextExpiry: string | undefined): Promise<void> {
  const values: Record<string, unknown> = { ':minus': -deleted };
  if (nextExpiry) values[':next'] = nextExpiry;
  await retryOnConflict(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        UpdateExpression: `ADD storedMsgs :minus ${nextExpiry ? 'SET nextExpiry = :next' : 'REMOVE nextExpiry'}`,
        ConditionExpression: 'attribute_exists(storedMsgs)',
        ExpressionAttributeValues: values,
      }),
    ),
  ).catch((error: unknown) => {
    // The state went with its owner meanwhile: nothing left to count.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  });
}

async function readStateAndShare(
  box: Mailbox,
  senderId: string | undefined,
): Promise<{ state: MailboxState; share: SenderShare }> {
  const layout = mailboxLayout(box);
  const found = await batchGet([layout.state, ...(senderId ? [layout.share(senderId)] : [])]);
  return {
    state: mailboxState(itemAt(found, layout.state)),
    share: senderShare(senderId ? itemAt(found, layout.share(senderId)) : undefined),
  };
}

/**
 * Claims the mailbox's recount (`recountedAt = now`) if one is due; false when another request has
 * it, or had it lately. A stale share (`staleShare`) claims it whatever its time: its sender, the
 * one knocking, is refused until the recount.
 */
async function claimRecount(box: Mailbox, now: Date, staleShareSeen = false): Promise<boolean> {
  const due = staleShareSeen
    ? 'attribute_exists(seq)'
    : 'attribute_exists(seq) AND (attribute_not_exists(storedMsgs) OR attribute_not_exists(recountedAt) OR recountedAt <= :cutoff OR nextExpiry <= :now)';
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        UpdateExpression: 'SET recountedAt = :now',
        ConditionExpression: due,
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ...(staleShareSeen
            ? {}
            : { ':cutoff': new Date(now.getTime() - RECOUNT_INTERVAL_MS).toISOString() }),
        },
      }),
    );
    return true;
  } catch (error) {
    const name = (error as Error).name;
    if (error instanceof ConditionalCheckFailedException || name === 'TransactionConflictException')
      return false;
    throw error;
  }
}

/** A share set to its sender's live messages, if no post or delete moved it since it was read. */
async function setShare(box: Mailbox, senderId: string, read: SenderShare, live = { msgs: 0, bytes: 0 }) {
  if (read.msgs === live.msgs && read.bytes === live.bytes) return;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).share(senderId),
        UpdateExpression: 'SET msgs = :msgs, #bytes = :bytes',
        ConditionExpression: 'msgs = :readMsgs AND #bytes = :readBytes',
        ExpressionAttributeNames: { '#bytes': 'bytes' },
        ExpressionAttributeValues: {
          ':msgs': live.msgs,
          ':bytes': live.bytes,
          ':readMsgs': read.msgs,
          ':readBytes': read.bytes,
        },
      }),
    );
  } catch (error) {
    // Moved meanwhile: the post or delete that moved it counted its own message; the next recount fixes the rest.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

async function deleteIfPresent(box: Mailbox, msgId: number): Promise<boolean> {
  const { Attributes } = await documentClient.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: mailboxLayout(box).message(msgId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes !== undefined;
}

/** `storedMsgs = live` and the recount's time, if the state is still the one read (no post, no delete since); false if not. */
async function setStored(box: Mailbox, read: MailboxState, counted: MailboxState): Promise<boolean> {
  // The state item must not outlive its owner: only while the owner's record is there.
  if (read.seq === 0 && counted.stored === 0) return true;
  const values: Record<string, unknown> = { ':live': counted.stored, ':at': counted.recountedAt };
  const conditions = [read.seq === 0 ? 'attribute_not_exists(seq)' : 'seq = :seq'];
  if (read.seq !== 0) values[':seq'] = read.seq;
  if (read.stored === undefined) conditions.push('attribute_not_exists(storedMsgs)');
  else {
    conditions.push('storedMsgs = :stored');
    values[':stored'] = read.stored;
  }
  let update = 'SET storedMsgs = :live, recountedAt = :at';
  if (counted.nextExpiry) {
    update += ', nextExpiry = :next';
    values[':next'] = counted.nextExpiry;
  } else update += ' REMOVE nextExpiry';
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        UpdateExpression: update,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Deletes every message agbot `org/id` sent to nodes (upstream deletes them with the agbot,
 * docs/exchange.md#agbots), found through gsi1 `NODEMSGS#<org>/<id>`, never a Scan. Run after
 * the agbot is claimed for deletion: its posts are refused from then on (postMessage checks).
 */
export async function deleteSentNodeMessages(org: string, id: string): Promise<number> {
  const byNode = new Map<string, { box: Mailbox; messages: MessageRef[] }>();
  const sent = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': agbotKeys.sentNodeMessagesIndex(org, id) },
    ProjectionExpression: 'org, id, msgId, #bytes',
    ExpressionAttributeNames: { '#bytes': 'bytes' },
  });
  for (const item of sent) {
    const box: Mailbox = { kind: 'node', org: String(item.org), id: String(item.id) };
    const key = `${box.org}/${box.id}`;
    const entry = byNode.get(key) ?? { box, messages: [] };
    entry.messages.push({
      msgId: Number(item.msgId),
      senderId: `${org}/${id}`,
      bytes: Number(item.bytes ?? 0),
    });
    byNode.set(key, entry);
  }
  let removed = 0;
  for (const { box, messages } of byNode.values()) removed += await removeMessages(box, messages);
  return removed;
}

/** Most Queries one read makes once it has found a live message (expired ones are deleted on the way). */
const MAX_QUERY_PAGES = 4;
/**
 * While every message it has read has expired, a read goes on, in larger Queries, up to this many:
 * an empty answer would tell the reader the mailbox is empty, and expired messages at its head
 * (replies that waited out their TTL in a burst) would hide the live ones behind them. Each expired
 * message is read and deleted once, so this work is paid once per message, not per read.
 */
const MAX_EXPIRED_QUERIES = 20;
const EXPIRED_QUERY_ITEMS = 100;

/** What a message adds to a list answer, as JSON (a little more than its view: the same fields and two numbers). */
const answerBytes = (message: MailboxMessage): number => Buffer.byteLength(JSON.stringify(message));

/**
 * The mailbox's unexpired messages, oldest first, within `bounds`: usually one Query of at most
 * `max` items. Expired messages it finds are deleted and uncounted on the way (more calls only
 * then); while it has found nothing live it reads on past them (MAX_EXPIRED_QUERIES).
 */
export async function readLiveMessages(
  box: Mailbox,
  now: string,
  bounds: ReadBounds,
): Promise<MailboxMessage[]> {
  const live: MailboxMessage[] = [];
  const expired: MessageRef[] = [];
  let used = 0;
  let startKey: Record<string, unknown> | undefined;
  const onlyExpiredSoFar = () => live.length === 0;
  const queries = () => (onlyExpiredSoFar() ? MAX_EXPIRED_QUERIES : MAX_QUERY_PAGES);
  reading: for (let page = 0; page < queries(); page++) {
    const from = startKey ? { startKey } : { after: bounds.after };
    // The first Query is the page asked for; behind an expired head, larger ones.
    const limit = page > 0 && onlyExpiredSoFar() ? Math.max(bounds.max, EXPIRED_QUERY_ITEMS) : bounds.max;
    const { messages, next } = await readMailboxPage(box, from, limit);
    for (const message of messages) {
      if (!isLive(message, now)) {
        expired.push(message);
        continue;
      }
      const size = answerBytes(message);
      if (live.length > 0 && used + size > bounds.budgetBytes) break reading;
      live.push(message);
      used += size;
      if (live.length >= bounds.max) break reading;
    }
    if (!next) break;
    startKey = next;
  }
  if (expired.length > 0) await removeMessages(box, expired);
  return live;
}

/**
 * What a DELETE of one message reads, in ONE consistent BatchGetItem: the mailbox's owner (for
 * authorization) and the message (its sender's share gets back what it took).
 */
export async function loadDeleteContext(
  box: Mailbox,
  msgId: number,
): Promise<{ owner: Record<string, unknown> | undefined; message: MessageRef | undefined }> {
  const layout = mailboxLayout(box);
  const wanted = msgId > 0 ? [layout.owner, layout.message(msgId)] : [layout.owner];
  const found = await batchGet(wanted);
  const item = msgId > 0 ? itemAt(found, layout.message(msgId)) : undefined;
  return { owner: itemAt(found, layout.owner), message: item ? toMessageRef(box, item) : undefined };
}

/** One unexpired message, or undefined (expired, deleted, never there). */
export async function readLiveMessage(
  box: Mailbox,
  msgId: number,
  now: string,
): Promise<MailboxMessage | undefined> {
  const found = await getMailboxMessage(box, msgId);
  return found && isLive(found, now) ? found : undefined;
}
