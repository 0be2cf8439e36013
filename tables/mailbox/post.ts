import type { PostLimits } from '#lib/mailbox';
import { tableName } from '../client.ts';
import { transactWriteWithChanges } from '../feed/changes.ts';
import { batchGet } from '../kernel/batch-get.ts';
import { type TransactItem, TransactionFailed } from '../kernel/transact.ts';
import { agbotKeys } from '../keys/agbot.ts';
import { nodeKeys } from '../keys/node.ts';
import { reconcileMailbox } from './cleanup.ts';
import {
  countMessages,
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
interface PostContext {
  owner: Item | undefined;
  sender: Item | undefined;
  state: MailboxState;
  share: SenderShare;
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
  return {
    owner: itemAt(found, layout.owner),
    sender: itemAt(found, senderKey(sender)),
    state: mailboxState(itemAt(found, layout.state)),
    share: senderShare(itemAt(found, share)),
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
  | { outcome: 'no-sender' };

interface PostRequest {
  box: Mailbox;
  sender: Sender;
  /** The message as it will be stored; its id and its `ttl` attribute are given here. */
  message: Omit<MailboxMessage, 'msgId' | 'ttl'>;
  limits: PostLimits;
  /** The mailbox state and share read with the authorization (loadPostContext). */
  state: MailboxState;
  share: SenderShare;
  now: Date;
}

const MAX_ATTEMPTS = 300;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(40, 3 + attempt)));

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

/**
 * Stores a message under the mailbox's next id, in ONE transaction with: the state item moved from
 * the `seq` read to seq + 1 with `storedMsgs + 1`, refused when `storedMsgs` has reached `max`; a check
 * that the owner is still there (and, for an agbot, not being deleted); the sender's share moved by
 * one message and its bytes, refused past the per-sender limits; for a node mailbox a check that
 * the sending agbot is not being deleted (its cascade removes what it sent); and the change row
 * (`agbotmsgs` / `nodemsgs`, id = the owner). A racer that moved `seq` first makes the transaction
 * fail: the state is read again and the write retried, so ids are given in commit order without
 * gaps. A full mailbox or share is recounted first (`reconcileMailbox`, which drops expired
 * messages, at most once a minute unless a message expired since). Then the org's counter moves.
 * Warm and uncontended: this transaction and that counter update.
 */
export async function postMessage(request: PostRequest): Promise<PostOutcome> {
  const { box, limits, message } = request;
  const { max } = limits;
  let { state, share } = request;
  for (let attempt = 0; ; attempt++) {
    // Mailboxes written before `storedMsgs` existed are counted once; a full one drops expired messages.
    const full = state.stored === undefined ? state.seq > 0 : max > 0 && state.stored >= max;
    if (full || shareExceeded(share, message.bytes, limits)) {
      ({ state, share } = await reconcileMailbox(box, request.now, senderFullId(request.sender), {
        state,
        share,
      }));
      if (max > 0 && (state.stored ?? 0) >= max) return { outcome: 'full' };
      const limit = shareExceeded(share, message.bytes, limits);
      if (limit) return { outcome: 'sender-full', limit };
    }
    const msgId = state.seq + 1;
    const items = postItems(request, state, msgId);
    const change = {
      org: box.org,
      id: box.id,
      resource: mailboxLayout(box).changeResource,
      operation: 'created' as const,
    };
    try {
      await transactWriteWithChanges(items, [change], request.now);
      await countMessages(box, 1);
      return { outcome: 'stored', msgId };
    } catch (error) {
      if (!(error instanceof TransactionFailed)) throw error;
      const [, , ownerGone, , senderGone] = error.failed;
      if (ownerGone) return { outcome: 'no-owner' };
      if (senderGone) return { outcome: 'no-sender' };
      if (attempt >= MAX_ATTEMPTS) throw new Error(`mailbox ${box.org}/${box.id}: too much contention`);
    }
    await pause(attempt);
    ({ state, share } = await readPostState(box, request.sender));
  }
}

/** State update, message Put, owner check, share update, [sender check]: failure reasons are read by index. */
function postItems(
  { box, sender, message, limits }: PostRequest,
  state: MailboxState,
  msgId: number,
): TransactItem[] {
  const layout = mailboxLayout(box);
  const table = tableName();
  const values: Record<string, unknown> = { ':next': msgId, ':one': 1 };
  let condition = state.seq === 0 ? 'attribute_not_exists(seq)' : 'seq = :seq';
  if (state.seq !== 0) values[':seq'] = state.seq;
  if (limits.max > 0) {
    condition += ' AND (attribute_not_exists(storedMsgs) OR storedMsgs < :max)';
    values[':max'] = limits.max;
  }
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
      Update: {
        TableName: table,
        Key: layout.state,
        UpdateExpression: 'SET seq = :next ADD storedMsgs :one',
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      },
    },
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
  if (sender.kind === 'agbot') {
    items.push({
      ConditionCheck: {
        TableName: table,
        Key: agbotKeys.record(sender.org, sender.id),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      },
    });
  }
  return items;
}
