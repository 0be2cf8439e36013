import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { transactWriteWithChanges } from './changes.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';
import {
  countMessages,
  type Mailbox,
  type MailboxMessage,
  type MailboxState,
  mailboxLayout,
  mailboxState,
  messageItem,
  readMailboxState,
} from './mailbox.ts';
import { reconcileMailbox } from './mailbox-cleanup.ts';
import { type TransactItem, TransactionFailed } from './transact.ts';

type Item = Record<string, unknown>;

/** The sender of a message: a node (to an agbot) or an agbot (to a node). */
export interface Sender {
  kind: 'node' | 'agbot';
  org: string;
  id: string;
}

/** What a POST needs before it writes: the mailbox's owner, the sender, the mailbox state. */
export interface PostContext {
  owner: Item | undefined;
  sender: Item | undefined;
  state: MailboxState;
}

const senderKey = (sender: Sender) =>
  sender.kind === 'node' ? keys.node(sender.org, sender.id) : keys.agbot(sender.org, sender.id);

/**
 * Reads the owner (for authorization), the sender (its public key) and the mailbox state in ONE
 * consistent BatchGetItem: the only read of a warm POST.
 */
export async function loadPostContext(box: Mailbox, sender: Sender): Promise<PostContext> {
  const layout = mailboxLayout(box);
  const wanted = [layout.owner, senderKey(sender), layout.state];
  const table = tableName();
  const found: Item[] = [];
  // The owner and the sender are never the same item: one is a node, the other an agbot.
  let pending: Item[] = wanted;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= 6) throw new Error('mailbox: DynamoDB left keys unprocessed');
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    const result = await documentClient.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(result.Responses?.[table] ?? []));
    pending = result.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  const byKey = (key: { pk: string; sk: string }) =>
    found.find((item) => item.pk === key.pk && item.sk === key.sk);
  return {
    owner: byKey(layout.owner),
    sender: byKey(senderKey(sender)),
    state: mailboxState(byKey(layout.state)),
  };
}

export type PostOutcome =
  | { outcome: 'stored'; msgId: number }
  | { outcome: 'full' }
  | { outcome: 'no-owner' }
  | { outcome: 'no-sender' };

export interface PostRequest {
  box: Mailbox;
  sender: Sender;
  /** The message as it will be stored; its id is given here. */
  message: Omit<MailboxMessage, 'msgId'>;
  /** `maxMessagesInMailbox` (0 = unlimited). */
  max: number;
  /** The mailbox state read with the authorization (loadPostContext). */
  state: MailboxState;
  now: Date;
}

const MAX_ATTEMPTS = 300;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(40, 3 + attempt)));

/**
 * Stores a message under the mailbox's next id, in ONE transaction with: the state item moved from
 * the `seq` read to seq + 1 with `storedMsgs + 1`, refused when `storedMsgs` has reached `max`; a check
 * that the owner is still there (and, for an agbot, not being deleted); for a node mailbox a check
 * that the sending agbot is not being deleted (its cascade removes what it sent); and the change
 * row (`agbotmsgs` / `nodemsgs`, id = the owner). A racer that moved `seq` first makes the
 * transaction fail: the state is read again and the write retried, so ids are given in commit
 * order without gaps. A full mailbox first drops its expired messages (`reconcileMailbox`).
 * Then the org's counter moves. Warm and uncontended: this transaction and that counter update.
 */
export async function postMessage(request: PostRequest): Promise<PostOutcome> {
  const { box, max } = request;
  let state = request.state;
  for (let attempt = 0; ; attempt++) {
    // Mailboxes written before `storedMsgs` existed are counted once; a full one drops expired messages.
    if (state.stored === undefined ? state.seq > 0 : max > 0 && state.stored >= max) {
      state = await reconcileMailbox(box, request.now.toISOString());
      if (max > 0 && (state.stored ?? 0) >= max) return { outcome: 'full' };
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
      const [, , ownerGone, senderGone] = error.failed;
      if (ownerGone) return { outcome: 'no-owner' };
      if (senderGone) return { outcome: 'no-sender' };
      if (attempt >= MAX_ATTEMPTS) throw new Error(`mailbox ${box.org}/${box.id}: too much contention`);
    }
    await pause(attempt);
    state = await readMailboxState(box);
  }
}

/** State update, message Put, owner check, [sender check]: failure reasons are read by index. */
function postItems(
  { box, sender, message, max }: PostRequest,
  state: MailboxState,
  msgId: number,
): TransactItem[] {
  const layout = mailboxLayout(box);
  const table = tableName();
  const values: Record<string, unknown> = { ':next': msgId, ':one': 1 };
  let condition = state.seq === 0 ? 'attribute_not_exists(seq)' : 'seq = :seq';
  if (state.seq !== 0) values[':seq'] = state.seq;
  if (max > 0) {
    condition += ' AND (attribute_not_exists(storedMsgs) OR storedMsgs < :max)';
    values[':max'] = max;
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
        Item: messageItem(box, { ...message, msgId }),
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
  ];
  if (sender.kind === 'agbot') {
    items.push({
      ConditionCheck: {
        TableName: table,
        Key: keys.agbot(sender.org, sender.id),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      },
    });
  }
  return items;
}
