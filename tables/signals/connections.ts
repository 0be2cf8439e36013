import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { queryAll } from '../kernel/query-all.ts';
import { recordDisconnected } from '../node/liveness.ts';
import { signalKeys } from './keys.ts';

/**
 * Who holds an open signal connection (docs/signals.md): written on `$connect`, deleted on
 * `$disconnect`. API Gateway ends every connection within two hours, so each item expires (TTL)
 * a little after that: a `$disconnect` lost in transit leaves nothing behind for long.
 */
export interface Listener {
  kind: 'node' | 'agbot';
  org: string;
  id: string;
}

/** API Gateway's maximum connection duration, and the slack before DynamoDB's TTL may remove the items. */
const MAX_CONNECTION_SECONDS = 2 * 60 * 60;
const TTL_SLACK_SECONDS = 10 * 60;

const listenerKey = (listener: Listener, connectionId: string) =>
  listener.kind === 'node'
    ? signalKeys.nodeListener(listener.org, listener.id, connectionId)
    : signalKeys.agbotListener(connectionId);

/**
 * Records an open connection: 2 items, 2 write units. `hearsMail`: the node asked for "mail now"
 * (lib/signals/address.ts, MAIL_NOW) when its mailbox alone has something.
 */
export async function addConnection(
  connectionId: string,
  listener: Listener,
  now = new Date(),
  options: { hearsMail?: boolean } = {},
): Promise<void> {
  const ttl = Math.floor(now.getTime() / 1000) + MAX_CONNECTION_SECONDS + TTL_SLACK_SECONDS;
  const hearsMail = options.hearsMail === true && listener.kind === 'node' ? { hearsMail: true } : {};
  const item = { ...listener, connectedAt: now.toISOString(), ttl, ...hearsMail };
  await documentClient.send(
    new BatchWriteCommand({
      RequestItems: {
        [tableName()]: [
          { PutRequest: { Item: { ...signalKeys.connection(connectionId), ...item } } },
          { PutRequest: { Item: { ...listenerKey(listener, connectionId), ...item, connectionId } } },
        ],
      },
    }),
  );
}

/**
 * Forgets a connection (both items); nothing when it is already gone, or, given `openedBefore`,
 * when it was opened at or after that time.
 */
export async function removeConnection(
  connectionId: string,
  openedBefore?: Date,
): Promise<Listener | undefined> {
  let Attributes: Record<string, unknown> | undefined;
  try {
    ({ Attributes } = await documentClient.send(
      new DeleteCommand({
        TableName: tableName(),
        Key: signalKeys.connection(connectionId),
        ReturnValues: 'ALL_OLD',
        ...(openedBefore
          ? {
              ConditionExpression: 'connectedAt < :before',
              ExpressionAttributeValues: { ':before': openedBefore.toISOString() },
            }
          : {}),
      }),
    ));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
  if (!Attributes) return undefined;
  const listener = { kind: Attributes.kind, org: Attributes.org, id: Attributes.id } as Listener;
  await documentClient.send(
    new DeleteCommand({ TableName: tableName(), Key: listenerKey(listener, connectionId) }),
  );
  return listener;
}

/**
 * Forgets a connection that is closed or gone (`$disconnect`, or a "look now" that could not be
 * delivered): its items, and for a node, from now on its liveness is the time it left (unless a
 * newer connection of the node has replaced it). Nothing when it is already forgotten, or, given
 * `openedBefore`, when it was opened at or after that time.
 */
export async function forgetConnection(
  connectionId: string,
  options: { at?: Date; openedBefore?: Date } = {},
): Promise<Listener | undefined> {
  const listener = await removeConnection(connectionId, options.openedBefore);
  if (listener?.kind === 'node')
    await recordDisconnected(
      listener.org,
      listener.id,
      connectionId,
      (options.at ?? new Date()).toISOString(),
    );
  return listener;
}

/** The open connections of one node (usually one). */
export const nodeConnections = (org: string, id: string): Promise<string[]> =>
  nodeListeners(org, id).then((items) => items.map((i) => i.connectionId));

/** The open connections of one node, each with whether it asked for "mail now". */
export const nodeListeners = (
  org: string,
  id: string,
): Promise<{ connectionId: string; hearsMail: boolean }[]> =>
  connectionsIn(signalKeys.nodePartition(org, id));

/** Every agbot's open connections (a handful per deployment), with who holds each. */
export const agbotConnections = (): Promise<(Listener & { connectionId: string; hearsMail: boolean })[]> =>
  connectionsIn(signalKeys.agbotPartition);

async function connectionsIn(
  partition: string,
): Promise<(Listener & { connectionId: string; hearsMail: boolean })[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
  });
  return items.map((item) => ({
    kind: item.kind as Listener['kind'],
    org: String(item.org),
    id: String(item.id),
    connectionId: String(item.connectionId),
    hearsMail: item.hearsMail === true,
  }));
}
