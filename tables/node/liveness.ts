import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { TransactionFailed, transactWrite } from '../kernel/transact.ts';
import { nodeKeys } from '../keys/node.ts';

/**
 * A node's liveness lives in a small item of its own (`NODE#<org>/<id>` / `NODE#HEARTBEAT`,
 * ~100 bytes, no index keys), so a heartbeat costs one write unit and writes no index
 * (tables/README.md, "Heartbeats"). Node writes (PUT, agreements, policy, configstate) still stamp
 * `lastHeartbeat` on the node item as upstream does; readers take the later of the two
 * (`laterHeartbeat`).
 */

/**
 * Sets the node's liveness to `at`; false when the node does not exist. The item is deleted with
 * the node's partition, so the usual heartbeat is one conditional UpdateItem on it; the first
 * heartbeat of a node creates it in a transaction that checks the node is there.
 */
export const recordHeartbeat = (org: string, id: string, at: string): Promise<boolean> =>
  recordLiveness(org, id, { lastHeartbeat: at });

/**
 * The node opened a signal connection (docs/signals.md): it reads as alive while the connection
 * lasts, with no heartbeat request at all; 1 write unit.
 */
export const recordConnected = (
  org: string,
  id: string,
  connectionId: string,
  at: string,
): Promise<boolean> =>
  recordLiveness(org, id, { lastHeartbeat: at, connection: connectionId, connectedAt: at });

/**
 * The node's signal connection closed: its liveness is the close time from now on. A newer
 * connection of the same node (a reconnect that beat the old close) is left as it is.
 */
export async function recordDisconnected(
  org: string,
  id: string,
  connectionId: string,
  at: string,
): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: nodeKeys.heartbeat(org, id),
        UpdateExpression: 'SET lastHeartbeat = :at REMOVE #connection, connectedAt',
        ConditionExpression: '#connection = :connection',
        ExpressionAttributeNames: { '#connection': 'connection' },
        ExpressionAttributeValues: { ':at': at, ':connection': connectionId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

async function recordLiveness(org: string, id: string, values: Record<string, string>): Promise<boolean> {
  const names = Object.keys(values);
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: nodeKeys.heartbeat(org, id),
        UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, values[name]])),
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: nodeKeys.record(org, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...nodeKeys.heartbeat(org, id), ...values } } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
}

/**
 * How long an open signal connection counts as liveness: API Gateway ends every connection within
 * two hours, so one older than that (its `$disconnect` lost) proves nothing any more.
 */
const CONNECTION_PROVES_LIFE_MS = (2 * 60 + 10) * 60_000;

/** The liveness item as readers see it: a node holding a signal connection is alive now. */
export function livenessHeartbeat(
  item: { lastHeartbeat?: unknown; connectedAt?: unknown } | undefined,
  now: number = Date.now(),
): string | undefined {
  if (!item) return undefined;
  const connectedAt = typeof item.connectedAt === 'string' ? instant(item.connectedAt) : Number.NaN;
  if (now - connectedAt < CONNECTION_PROVES_LIFE_MS) return new Date(now).toISOString();
  return typeof item.lastHeartbeat === 'string' ? item.lastHeartbeat : undefined;
}

/** Stored timestamps may carry upstream's zone suffix (`…Z[UTC]`); compare the instants. */
const instant = (value: string | undefined): number =>
  value ? Date.parse(value.replace(/\[.*\]$/, '')) || 0 : Number.NEGATIVE_INFINITY;

/** The later of two heartbeats (either may be missing). */
export function laterHeartbeat(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b || a;
  if (!b) return a;
  return instant(b) > instant(a) ? b : a;
}

/** True for the liveness item in a node partition's items. */
export const isHeartbeatItem = (item: { sk?: unknown }): boolean => item.sk === nodeKeys.heartbeat('', '').sk;

type NodeKey = { org: string; id: string; lastHeartbeat?: string | undefined };

/**
 * `nodes` with `lastHeartbeat` set to the later of their own and their liveness item's, read with
 * BatchGetItem (100 keys a call, eventually consistent: for lists and searches, which are too).
 */
export async function withHeartbeats<T extends NodeKey>(nodes: T[]): Promise<T[]> {
  const beats = new Map<string, string>();
  for (let start = 0; start < nodes.length; start += 100) {
    let pending: Record<string, unknown>[] = nodes
      .slice(start, start + 100)
      .map((node) => nodeKeys.heartbeat(node.org, node.id));
    for (let attempt = 0; pending.length > 0; attempt++) {
      const result = await documentClient.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys: pending, ProjectionExpression: 'pk, lastHeartbeat, connectedAt' },
          },
        }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) {
        const beat = livenessHeartbeat(item);
        if (beat) beats.set(String(item.pk), beat);
      }
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
      if (pending.length > 0)
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    }
  }
  return nodes.map((node) => {
    const beat = beats.get(nodeKeys.heartbeat(node.org, node.id).pk);
    const latest = laterHeartbeat(node.lastHeartbeat, beat);
    return latest === node.lastHeartbeat ? node : { ...node, lastHeartbeat: latest };
  });
}
