import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { indexKeys } from './keys.ts';
import {
  countMessages,
  getMailboxMessage,
  isLive,
  listMailbox,
  type Mailbox,
  type MailboxMessage,
  type MailboxState,
  mailboxLayout,
  mailboxState,
} from './mailbox.ts';
import { type TransactItem, TransactionFailed, transactWrite } from './transact.ts';

/** Deletes per transaction, beside the state update (DynamoDB allows 100 items). */
const CHUNK = 99;

/**
 * Deletes messages of a mailbox and takes them out of its `storedMsgs` count in the same transaction,
 * each only if it is still there, so a message two requests delete at once is uncounted once.
 * Then uncounts them from the org. Resolves how many this call deleted.
 */
export async function removeMessages(box: Mailbox, msgIds: number[]): Promise<number> {
  const layout = mailboxLayout(box);
  let removed = 0;
  for (let i = 0; i < msgIds.length; i += CHUNK) {
    let chunk = msgIds.slice(i, i + CHUNK).filter((msgId) => msgId > 0);
    let withState = true;
    while (chunk.length > 0) {
      const deletes: TransactItem[] = chunk.map((msgId) => ({
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
      try {
        await transactWrite(withState ? [...deletes, state] : deletes);
        removed += chunk.length;
        break;
      } catch (error) {
        if (!(error instanceof TransactionFailed)) throw error;
        // A state item without `storedMsgs` (written before it existed, or gone with its owner) is
        // left alone: the next post counts the mailbox.
        if (withState && error.failed[chunk.length]) withState = false;
        chunk = chunk.filter((_, index) => !error.failed[index]);
      }
    }
  }
  await countMessages(box, -removed);
  return removed;
}

/**
 * Makes `storedMsgs` exact again and drops expired messages: the path of a full mailbox (and, once,
 * of a mailbox written before `storedMsgs` existed). Reads the state, then the messages, deletes the
 * expired ones, and sets `storedMsgs` to the live count only if no post or delete moved the state
 * meanwhile (else it starts over). This also repairs what DynamoDB's TTL deleted without
 * uncounting.
 */
export async function reconcileMailbox(box: Mailbox, now: string): Promise<MailboxState> {
  const layout = mailboxLayout(box);
  for (let attempt = 0; attempt < 20; attempt++) {
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: layout.state, ConsistentRead: true }),
    );
    const state = mailboxState(Item);
    const messages = await listMailbox(box);
    const expired = messages.filter((message) => !isLive(message, now));
    const live = messages.length - expired.length;
    const gone = await Promise.all(expired.map((message) => deleteIfPresent(box, message.msgId)));
    await countMessages(box, -gone.filter(Boolean).length);
    if (state.stored === live) return state;
    if (await setStored(box, state, live)) return { seq: state.seq, stored: live };
  }
  throw new Error(`mailbox ${box.org}/${box.id}: could not be counted`);
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

/** `storedMsgs = live`, if the state is still the one read (no post, no delete since); false if not. */
async function setStored(box: Mailbox, read: MailboxState, live: number): Promise<boolean> {
  const values: Record<string, unknown> = { ':live': live };
  const conditions = [read.seq === 0 ? 'attribute_not_exists(seq)' : 'seq = :seq'];
  if (read.seq !== 0) values[':seq'] = read.seq;
  if (read.stored === undefined) conditions.push('attribute_not_exists(storedMsgs)');
  else {
    conditions.push('storedMsgs = :stored');
    values[':stored'] = read.stored;
  }
  // The state item must not outlive its owner: only while the owner's record is there.
  if (read.seq === 0 && live === 0) return true;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mailboxLayout(box).state,
        UpdateExpression: 'SET storedMsgs = :live',
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
 * exchange-behavior §14.11), found through gsi1 `NODEMSGS#<org>/<id>`, never a Scan. Run after
 * the agbot is claimed for deletion: its posts are refused from then on (postMessage checks).
 */
export async function deleteSentNodeMessages(org: string, id: string): Promise<number> {
  const byNode = new Map<string, { box: Mailbox; msgIds: number[] }>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': indexKeys.sentNodeMessages(org, id) },
        ProjectionExpression: 'org, id, msgId',
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const box: Mailbox = { kind: 'node', org: String(item.org), id: String(item.id) };
      const key = `${box.org}/${box.id}`;
      const entry = byNode.get(key) ?? { box, msgIds: [] };
      entry.msgIds.push(Number(item.msgId));
      byNode.set(key, entry);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  let removed = 0;
  for (const { box, msgIds } of byNode.values()) removed += await removeMessages(box, msgIds);
  return removed;
}

/**
 * The mailbox's unexpired messages, oldest first, at most `max` (0 = all): one Query. Expired
 * messages it finds are deleted and uncounted on the way (more calls only then).
 */
export async function readLiveMessages(box: Mailbox, now: string, max = 0): Promise<MailboxMessage[]> {
  const messages = await listMailbox(box);
  const live = messages.filter((message) => isLive(message, now));
  if (live.length < messages.length) {
    const expired = messages.filter((message) => !isLive(message, now)).map((message) => message.msgId);
    await removeMessages(box, expired);
  }
  return max > 0 ? live.slice(0, max) : live;
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
