import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PostLimits } from '#lib/mailbox';
import { documentClient, tableName } from '../client.ts';
import { transactWriteWithChanges } from '../feed/changes.ts';
import { batchGet } from '../kernel/batch-get.ts';
import { retryOnConflict } from '../kernel/retry-on-conflict.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';
import { reconcileMailbox } from './cleanup.ts';
import {
  itemAt,
  type Mailbox,
  type MailboxMessage,
  type MailboxState,
  mailboxLayout,
  mailboxState,
  messageItem,
  messageTtlAttribute,
  type SenderShare,
  senderShare,
} from './mailbox.ts';

type Item = Record<string, unknown>;

/** The sender of a message: a node (to an agbot) or an agbot (to a node). */
interface Sender {
  kind: 'node' | 'agbot';
  org: string;
  id: string;
}

/** What a POST needs before it writes: the mailbox's owner, the sender, the mailbox state, the sender's share. */
export interface PostContext {
  owner: Item | undefined;
  sender: Item | undefined;
  state: MailboxState;
  share: SenderShare;
  /** Whose deletion had started when read: a post then writes nothing. */
  deleting: Deleting;
}

interface Deleting {
  owner: boolean;
  sender: boolean;
}

const senderKey = (sender: Sender) =>
  sender.kind === 'node' ? nodeKeys.record(sender.org, sender.id) : agbotKeys.record(sender.org, sender.id);
const senderFullId = (sender: Sender) => `${sender.org}/${sender.id}`;

/**
 * Reads the owner (for authorization), the sender (its public key), the mailbox state and the
 * sender's share in ONE consistent BatchGetItem: the only read of a warm POST.
 */
export async function loadPostContext(box: Mailbox, sender: Sender): Promise<PostContext> {
  const layout = mailboxLayout(box);
  const share = layout.share(senderFullId(sender));
  // The owner and the sender are never the same item: one is a node, the other an agbot.
  const found = await batchGet([layout.owner, senderKey(sender), layout.state, share]);
  const owner = itemAt(found, layout.owner);
  const senderItem = itemAt(found, senderKey(sender));
  return {
    owner,
    sender: senderItem,
    state: mailboxState(itemAt(found, layout.state)),
    share: senderShare(itemAt(found, share)),
    // An agbot's cascade removes what it sent, so it sends nothing once started; a node's does not.
    deleting: {
      owner: owner?.deleting !== undefined,
      sender: sender.kind === 'agbot' && senderItem?.deleting !== undefined,
    },
  };
}

/** The state and the sender's share again (one BatchGetItem), after a racer moved them. */
async function readPostState(
  box: Mailbox,
  sender: Sender,
): Promise<{ state: MailboxState; share: SenderShare }> {
  const layout = mailboxLayout(box);
  const share = layout.share(senderFullId(sender));
  const found = await batchGet([layout.state, share]);
  return { state: mailboxState(itemAt(found, layout.state)), share: senderShare(itemAt(found, share)) };
}

type PostOutcome =
  | { outcome: 'stored'; msgId: number }
  | { outcome: 'full' }
  | { outcome: 'sender-full'; limit: 'messages' | 'bytes' }
  | { outcome: 'no-owner' }
  | { outcome: 'no-sender' }
  /** Only with `senderKey`: the sender's key is no longer that one, or the sender is gone or going. */
  | { outcome: 'sender-changed' };

interface PostRequest {
  box: Mailbox;
  sender: Sender;
  /** The message as it will be stored; its id and its `ttl` attribute are given here. */
  message: Omit<MailboxMessage, 'msgId' | 'ttl'>;
  limits: PostLimits;
  /**
   * The mailbox state and share read with the authorization (loadPostContext), or undefined when
   * nothing was read (a post with `senderKey`): the transaction's conditions then check the
   * limits, and a post they refuse reads the state and share before it answers.
   */
  state?: MailboxState;
  share?: SenderShare;
  /**
   * The sender's public key, not read: remembered (an agbot's) or from authentication (a node's
   * principal item). The transaction checks that the sender's record still holds it (and, for an
   * agbot, is not being deleted); when it does not, the post writes nothing and answers
   * `sender-changed`, and the caller reads the sender and posts again.
   */
  senderKey?: string;
  /** Read with them: a deletion under way is answered without a write. */
  deleting?: Deleting;
  now: Date;
}

/**
 * What a post's authorization found: the mailbox state, the sender's share and its key read, or
 * only the key, not read (an agbot's remembered, a node's from authentication: `keyUnread`).
 */
export interface PostTarget {
  box: Mailbox;
  state?: MailboxState;
  share?: SenderShare;
  deleting?: Deleting;
  /** The sender's public key, stored with the message. */
  senderPubKey: string;
  /** The key was not read: the transaction checks it (`senderKey`). */
  keyUnread: boolean;
}

/**
 * Posts to `target`'s mailbox the message `message` builds with the sender's key. When that key
 * was not read and the transaction found the sender no longer holds it, `slowPath.forget` drops
 * where it came from and the post is made again on what `slowPath.read` reads (the key, the
 * state, the share): the two handlers' one rule for a key taken on trust.
 */
export async function postToTarget(
  target: PostTarget,
  post: Pick<PostRequest, 'sender' | 'limits' | 'now'> & {
    message: (senderPubKey: string) => PostRequest['message'];
  },
  slowPath: { forget: () => void; read: () => Promise<PostTarget> },
): Promise<PostOutcome> {
  const attempt = (to: PostTarget) =>
    postMessage({
      box: to.box,
      sender: post.sender,
      message: post.message(to.senderPubKey),
      limits: post.limits,
      state: to.state,
      share: to.share,
      deleting: to.deleting,
      ...(to.keyUnread ? { senderKey: to.senderPubKey } : {}),
      now: post.now,
    });
  const result = await attempt(target);
  if (result.outcome !== 'sender-changed') return result;
  slowPath.forget();
  return attempt(await slowPath.read());
}

/** Which of the sender's limits this message would pass, if any. */
function shareExceeded(
  share: SenderShare,
  bytes: number,
  limits: PostLimits,
): 'messages' | 'bytes' | undefined {
  if (limits.perSender.msgs > 0 && share.msgs >= limits.perSender.msgs) return 'messages';
  if (limits.perSender.bytes > 0 && share.bytes + bytes > limits.perSender.bytes) return 'bytes';
  return undefined;
}

/** A failed write is tried again this many times when a racer of the same sender moved its share. */
const MAX_ATTEMPTS = 20;

/**
 * Stores a message. First its id and its place: ONE UpdateItem on the mailbox's state that adds 1
 * to `seq` (the id, read back) and to `storedMsgs`, refused when `storedMsgs` has reached `max`.
 * A counter moved by ADD takes concurrent senders one after another without failing any of them,
 * where a transaction conditioned on the `seq` it read made all but one of a burst fail and retry
 * (an agbot's mailbox when a thousand nodes reply to one round: tables/README.md, "Mailboxes").
 * Then ONE transaction: the message Put; a check that the owner is still there (and, for an agbot,
 * not being deleted); the sender's share moved by one message and its bytes, refused past the
 * per-sender limits; for a node mailbox a check that the sending agbot is not being deleted (its
 * cascade removes what it sent); with `senderKey`, a check that the sender still holds that key;
 * and the change row (`agbotmsgs` / `nodemsgs`, id = the owner).
 * When that fails, the place is given back and the id is never used: ids grow in the order they
 * were taken, with gaps, as upstream's serial ids. A full mailbox or share is recounted first
 * (`reconcileMailbox`, which drops expired messages, at most once a minute unless a message
 * expired since). The org's counter follows from the table's stream. Warm: the UpdateItem and the
 * transaction; with `senderKey` nothing else is read, and the limits are the conditions'.
 */
export async function postMessage(request: PostRequest): Promise<PostOutcome> {
  const { box, limits, message } = request;
  const { max } = limits;
  // Not read: nothing is known to be full until a condition says so.
  let { state = { seq: 0, stored: 0 }, share = { msgs: 0, bytes: 0 } } = request;
  let read = request.state !== undefined && request.share !== undefined;
  if (request.deleting?.owner) return { outcome: 'no-owner' };
  if (request.deleting?.sender) return { outcome: 'no-sender' };
  for (let attempt = 0; ; attempt++) {
    // Mailboxes written before `storedMsgs` existed are counted once; a full one drops expired messages.
    const full = state.stored === undefined ? state.seq > 0 : max > 0 && state.stored >= max;
    if (full || shareExceeded(share, message.bytes, limits)) {
      ({ state, share } = await reconcileMailbox(
        box,
        request.now,
        senderFullId(request.sender),
        read ? { state, share } : undefined,
      ));
      read = true;
      if (max > 0 && (state.stored ?? 0) >= max) return { outcome: 'full' };
      const limit = shareExceeded(share, message.bytes, limits);
      if (limit) return { outcome: 'sender-full', limit };
    }
    const msgId = await reservePlace(box, max, request.now);
    if (msgId === undefined) {
      // Filled by others since it was read (or never read, or never counted): recounted (expired
      // messages dropped) before an answer.
      state = { ...state, stored: max > 0 ? max : undefined, seq: Math.max(state.seq, 1) };
      if (attempt >= MAX_ATTEMPTS) return { outcome: 'full' };
      continue;
    }
    const change = {
      org: box.org,
      id: box.id,
      resource: mailboxLayout(box).changeResource,
      operation: 'created' as const,
    };
    try {
      await transactWriteWithChanges(postItems(request, msgId), [change], request.now);
    } catch (error) {
      await givePlaceBack(box);
      if (!(error instanceof TransactionFailed)) throw error;
      const [, ownerGone, , senderGone] = error.failed;
      if (ownerGone) {
        // Deleted since it was read: the state this post made in its gone partition goes too.
        await forgetEmptyState(box);
        return { outcome: 'no-owner' };
      }
      if (senderGone) return { outcome: request.senderKey === undefined ? 'no-sender' : 'sender-changed' };
      // The sender's share moved by a racer of the same sender (or was never read): read again, and checked again.
      if (attempt >= MAX_ATTEMPTS) throw new Error(`mailbox ${box.org}/${box.id}: too much contention`);
      ({ state, share } = await readPostState(box, request.sender));
      read = true;
      continue;
    }
    return { outcome: 'stored', msgId };
  }
}

/**
 * The next id and a place in the mailbox, or undefined when `storedMsgs` has reached `max` (> 0).
 * The place is counted before its message is written, so the time it was taken (`placeTakenAt`)
 * tells a recount that a message may still be on its way (cleanup.ts, `reconcileMailbox`).
 */
export async function reservePlace(box: Mailbox, max: number, now: Date): Promise<number | undefined> {
  try {
    const { Attributes } = await retryOnConflict(() =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: mailboxLayout(box).state,
          UpdateExpression: 'ADD seq :one, storedMsgs :one SET placeTakenAt = :now',
          // A mailbox written before `storedMsgs` existed (a `seq`, no count) is refused: counted
          // first (reconcileMailbox), it is not counted from 1 by a post that did not read it.
          ConditionExpression: `(attribute_not_exists(seq) OR attribute_exists(storedMsgs))${
            max > 0 ? ' AND (attribute_not_exists(storedMsgs) OR storedMsgs < :max)' : ''
          }`,
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': now.toISOString(),
            ...(max > 0 ? { ':max': max } : {}),
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return Number(Attributes?.seq);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** A place taken for a message that was not stored (its id stays unused). */
const givePlaceBack = (box: Mailbox) =>
  retryOnConflict(() =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        UpdateExpression: 'ADD storedMsgs :minus',
        ExpressionAttributeValues: { ':minus': -1 },
      }),
    ),
  );

/** The mailbox's state item when it holds no message, left by a post whose owner went meanwhile. */
async function forgetEmptyState(box: Mailbox): Promise<void> {
  try {
    await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        ConditionExpression: 'storedMsgs <= :none',
        ExpressionAttributeValues: { ':none': 0 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Message Put, owner check, share update, [sender check: always for an agbot, for a node only with
 * `senderKey`]: failure reasons are read by index.
 */
function postItems({ box, sender, message, limits, senderKey }: PostRequest, msgId: number): TransactItem[] {
  const layout = mailboxLayout(box);
  const table = tableName();
  const shareValues: Record<string, unknown> = { ':one': 1, ':bytes': message.bytes };
  const shareConditions: string[] = [];
  if (limits.perSender.msgs > 0) {
    shareConditions.push('(attribute_not_exists(msgs) OR msgs < :maxMsgs)');
    shareValues[':maxMsgs'] = limits.perSender.msgs;
  }
  if (limits.perSender.bytes > 0) {
    shareConditions.push('(attribute_not_exists(#bytes) OR #bytes <= :room)');
    shareValues[':room'] = limits.perSender.bytes - message.bytes;
  }
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: messageItem(box, { ...message, msgId, ttl: messageTtlAttribute(message.timeExpires) }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: layout.owner,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      },
    },
    {
      Update: {
        TableName: table,
        Key: layout.share(senderFullId(sender)),
        UpdateExpression: 'ADD msgs :one, #bytes :bytes',
        ExpressionAttributeNames: { '#bytes': 'bytes' },
        ...(shareConditions.length > 0 ? { ConditionExpression: shareConditions.join(' AND ') } : {}),
        ExpressionAttributeValues: shareValues,
      },
    },
  ];
  const sameKey = senderKey === undefined ? '' : ' AND publicKey = :key';
  const keyValue = senderKey === undefined ? {} : { ExpressionAttributeValues: { ':key': senderKey } };
  if (sender.kind === 'agbot') {
    items.push({
      ConditionCheck: {
        TableName: table,
        Key: agbotKeys.record(sender.org, sender.id),
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleting)${sameKey}`,
        ...keyValue,
      },
    });
  } else if (senderKey !== undefined) {
    // A node's key taken from its principal item: checked, never trusted. A node being deleted
    // still posts (its messages to agbots survive it), so no `deleting` here.
    items.push({
      ConditionCheck: {
        TableName: table,
        Key: nodeKeys.record(sender.org, sender.id),
        ConditionExpression: `attribute_exists(pk)${sameKey}`,
        ...keyValue,
      },
    });
  }
  return items;
}
