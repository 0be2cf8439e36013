import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { handler as listMessages } from '#functions/agbot-messages/list-messages';
import { handler as postMessage } from '#functions/agbot-messages/post-message';
import { handler as deleteAgbot } from '#functions/agbots/delete-agbot';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { orgKeys } from '#tables/keys/org';
import { invoke } from '#test/support/invoke';
import type { Credentials } from './in-process.ts';
import { agbotId, WAITING } from './messages-seed.ts';
import { ORG } from './seed.ts';

/**
 * The two mailbox endpoints in-process (as Lambda would, no HTTP) and the raw DynamoDB calls each
 * needs, for the overhead ratio; and the DELETE of an agbot with a full mailbox.
 */
export const POST_TARGET = agbotId(1);
export const MESSAGE = { message: `an encrypted reply: ${'x'.repeat(200)}`, ttl: 3600 };

const path = (agbot: string) => ({ organization: ORG, agreementbot: agbot });
const idOf = (c: Credentials) => c.user.split('/')[1] ?? '';

export async function handlerPost(sender: Credentials): Promise<void> {
  const result = await invoke(postMessage, { auth: sender, path: path(POST_TARGET), body: MESSAGE });
  if (result.status !== 201) throw new Error(`POST msg → ${result.status}: ${result.text}`);
}

export async function handlerGet(reader: Credentials): Promise<void> {
  const result = await invoke(listMessages, { auth: reader, path: path(idOf(reader)) });
  if (result.status !== 200 || result.body.messages.length !== WAITING) {
    throw new Error(`GET msgs → ${result.status}: ${result.text.slice(0, 300)}`);
  }
}

const get = (key: { pk: string; sk: string }) =>
  documentClient.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));

let rawSeq = 1_000_000_000;

/**
 * What a warm POST does (the sender's identity cached): read the agbot, the node and the mailbox
 * state in one BatchGetItem; one transaction (mailbox state, the message, the agbot still there, the change
 * sequence and its row); count it in the org's STATS.
 */
export async function rawPost(sender: Credentials): Promise<void> {
  const state = agbotKeys.messageSeq(ORG, 'raw-bench');
  await documentClient.send(
    new BatchGetCommand({
      RequestItems: {
        [tableName()]: {
          Keys: [agbotKeys.record(ORG, POST_TARGET), nodeKeys.record(ORG, idOf(sender)), state],
          ConsistentRead: true,
        },
      },
    }),
  );
  const now = new Date();
  const msgId = rawSeq++;
  const table = tableName();
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: table,
            Key: state,
            UpdateExpression: 'SET seq = :next ADD storedMsgs :one',
            ExpressionAttributeValues: { ':next': msgId, ':one': 1 },
          },
        },
        {
          Put: {
            TableName: table,
            Item: {
              ...agbotKeys.message(ORG, 'raw-bench', msgId),
              org: ORG,
              id: 'raw-bench',
              msgId,
              nodeId: sender.user,
              nodePubKey: 'key',
              message: MESSAGE.message,
              timeSent: now.toISOString(),
              timeExpires: new Date(now.getTime() + MESSAGE.ttl * 1000).toISOString(),
              ttl: Math.floor(now.getTime() / 1000) + MESSAGE.ttl + 86_400,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: table,
            Key: agbotKeys.record(ORG, POST_TARGET),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        {
          Update: {
            TableName: table,
            Key: { pk: 'RAWBENCH', sk: 'SEQ' },
            UpdateExpression: 'ADD seq :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        {
          Put: {
            TableName: table,
            Item: {
              pk: 'RAWBENCH',
              sk: String(msgId),
              resource: 'agbotmsgs',
              ttl: Math.floor(now.getTime() / 1000),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: orgKeys.stats(ORG),
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': 'agbotMsgs' },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/** What a warm GET does (the agbot's identity cached): read the agbot, Query its mailbox (consistent). */
export async function rawGet(reader: Credentials): Promise<void> {
  await get(agbotKeys.record(ORG, idOf(reader)));
  const { pk } = agbotKeys.record(ORG, idOf(reader));
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': 'MSG#' },
      ConsistentRead: true,
    }),
  );
  if (Items.length !== WAITING) throw new Error(`raw GET found ${Items.length} messages`);
}

export interface DeleteFigures {
  messages: number;
  wallMs: number;
  calls: number;
}

/** DELETE of `agbot` (holding `messages` messages) by its owner: wall time and DynamoDB calls. */
export async function timedDelete(
  owner: Credentials,
  agbot: string,
  messages: number,
): Promise<DeleteFigures> {
  const before = dynamoCallCount();
  const start = performance.now();
  const result = await invoke(deleteAgbot, { auth: owner, path: path(agbot) });
  const wallMs = performance.now() - start;
  const calls = dynamoCallCount() - before;
  if (result.status !== 204) throw new Error(`DELETE agbot → ${result.status}: ${result.text}`);
  const left = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': agbotKeys.record(ORG, agbot).pk },
      Select: 'COUNT',
    }),
  );
  if (left.Count) throw new Error(`DELETE agbot left ${left.Count} items behind`);
  return { messages, wallMs, calls };
}
