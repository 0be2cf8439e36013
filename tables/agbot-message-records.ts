import {
  DeleteCommand,
  GetCommand,
  QueryCommand as RawQueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  DeleteItemCommand,
  Entity,
  type FormattedItem,
  GetItemCommand,
  item,
  number,
  PutItemCommand,
  string,
} from 'dynamodb-toolbox';
import { documentClient, tableName } from './client.ts';
import { agbotChildPrefix, keys } from './keys.ts';
import { ExchangeTable } from './table.ts';

/**
 * A message a node sent to an agbot: `AGBOT#<org>/<id>` / `MSG#<zero-padded msgId>`, in the
 * agbot's partition so one Query returns its mailbox oldest first. `timeExpires` decides whether
 * it is still readable; `ttl` only lets DynamoDB clean up mailboxes nobody reads any more.
 */
export const AgbotMessageEntity = new Entity({
  name: 'agbotMessage',
  table: ExchangeTable,
  timestamps: false,
  schema: item({
    org: string().key(),
    id: string().key(),
    msgId: number().key(),
    nodeId: string(),
    nodePubKey: string(),
    message: string(),
    timeSent: string(),
    timeExpires: string(),
    ttl: number(),
  }),
  computeKey: ({ org, id, msgId }: { org: string; id: string; msgId: number }) =>
    keys.agbotMessage(org, id, msgId),
});

export type AgbotMessageRecord = FormattedItem<typeof AgbotMessageEntity>;

/**
 * Past its expiry a message is never returned, and the next read of the mailbox deletes it (and
 * uncounts it). DynamoDB's TTL deletes it without uncounting, so `ttl` is set this much later: it
 * only sweeps mailboxes nobody has read for a day.
 */
export const TTL_GRACE_SECONDS = 24 * 60 * 60;

export const isLive = (message: { timeExpires: string }, now: string): boolean => message.timeExpires > now;

/** The next message id of the agbot: one atomic ADD, so ids increase and are never handed out twice. */
export async function nextMessageId(org: string, id: string): Promise<number> {
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.agbotMessageSeq(org, id),
      UpdateExpression: 'ADD #seq :one',
      ExpressionAttributeNames: { '#seq': 'seq' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.seq);
}

const CONFLICT_RETRIES = 5;

/**
 * Moves the org's `agbotMsgs` counter. A plain UpdateItem after the message write rather than a
 * transaction with it: every message of an org touches the same STATS item, and concurrent
 * transactions on one item conflict, while plain ADDs queue. It only collides with the rare
 * transaction that creates or deletes a node or an agbot, and is retried then.
 */
async function countMessages(org: string, delta: number): Promise<void> {
  if (delta === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.orgStats(org),
          UpdateExpression: 'ADD #count :delta',
          ExpressionAttributeNames: { '#count': 'agbotMsgs' },
          ExpressionAttributeValues: { ':delta': delta },
        }),
      );
      return;
    } catch (error) {
      const conflict = (error as Error).name === 'TransactionConflictException';
      if (!conflict || attempt >= CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    }
  }
}

/** Stores the message under its (fresh) id and counts it. */
export async function insertMessage(message: AgbotMessageRecord): Promise<void> {
  await AgbotMessageEntity.build(PutItemCommand)
    .item(message)
    .options({ condition: { attr: 'msgId', exists: false } })
    .send();
  await countMessages(message.org, 1);
}

/**
 * The agbot's whole mailbox, oldest first, expired messages included (one consistent Query). A
 * plain Query projecting the record's own fields: the library's per-item formatting cost ~30%
 * more than the DynamoDB call itself on a full mailbox, and these items are written only here.
 */
export async function listMessages(org: string, id: string): Promise<AgbotMessageRecord[]> {
  const messages: AgbotMessageRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new RawQueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.agbot(org, id).pk, ':prefix': agbotChildPrefix.message },
        ProjectionExpression: 'org, id, msgId, nodeId, nodePubKey, message, timeSent, timeExpires, #ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    messages.push(...((page.Items ?? []) as AgbotMessageRecord[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return messages;
}

/** How many unexpired messages wait in the mailbox (a COUNT Query of the agbot's partition). */
export async function countLiveMessages(org: string, id: string, now: string): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new RawQueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'timeExpires > :now',
        ExpressionAttributeValues: {
          ':pk': keys.agbot(org, id).pk,
          ':prefix': agbotChildPrefix.message,
          ':now': now,
        },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

export async function getMessage(
  org: string,
  id: string,
  msgId: number,
): Promise<AgbotMessageRecord | undefined> {
  const { Item } = await AgbotMessageEntity.build(GetItemCommand)
    .key({ org, id, msgId })
    .options({ consistent: true })
    .send();
  return Item;
}

/** Deletes one message; whether it was there (the delete returns what it removed). */
async function removeMessage(org: string, id: string, msgId: number): Promise<boolean> {
  const { Attributes } = await AgbotMessageEntity.build(DeleteItemCommand)
    .key({ org, id, msgId })
    .options({ returnValues: 'ALL_OLD' })
    .send();
  return Attributes !== undefined;
}

/**
 * Deletes messages and uncounts those that were there, so a message two requests delete at once
 * is uncounted once. Resolves how many this call deleted.
 */
export async function deleteMessages(org: string, id: string, msgIds: number[]): Promise<number> {
  const removed = await Promise.all(msgIds.map((msgId) => removeMessage(org, id, msgId)));
  const count = removed.filter(Boolean).length;
  await countMessages(org, -count);
  return count;
}

/**
 * After a message is stored: is its agbot still there and not being deleted? A DELETE of the agbot
 * that ran between the sender's authorization and the write has already swept the partition, so
 * the sender must take its message back (and the id counter, when the agbot is gone) — otherwise
 * it would outlive its agbot.
 */
export async function keepOrDiscardMessage(org: string, id: string, msgId: number): Promise<boolean> {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.agbot(org, id),
      ConsistentRead: true,
      ProjectionExpression: 'pk, deleting',
    }),
  );
  if (Item && Item.deleting === undefined) return true;
  await deleteMessages(org, id, [msgId]);
  if (!Item)
    await documentClient.send(
      new DeleteCommand({ TableName: tableName(), Key: keys.agbotMessageSeq(org, id) }),
    );
  return false;
}
