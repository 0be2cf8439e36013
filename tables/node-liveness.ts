import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { keys } from './keys.ts';
import { TransactionFailed, transactWrite } from './transact.ts';

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
export async function recordHeartbeat(org: string, id: string, at: string): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.nodeHeartbeat(org, id),
        UpdateExpression: 'SET lastHeartbeat = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
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
          Key: keys.node(org, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...keys.nodeHeartbeat(org, id), lastHeartbeat: at } } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionFailed) return false;
    throw error;
  }
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
export const isHeartbeatItem = (item: { sk?: unknown }): boolean => item.sk === keys.nodeHeartbeat('', '').sk;

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
      .map((node) => keys.nodeHeartbeat(node.org, node.id));
    for (let attempt = 0; pending.length > 0; attempt++) {
      const result = await documentClient.send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ProjectionExpression: 'pk, lastHeartbeat' } },
        }),
      );
      for (const item of result.Responses?.[tableName()] ?? [])
        beats.set(String(item.pk), String(item.lastHeartbeat));
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
      if (pending.length > 0)
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    }
  }
  return nodes.map((node) => {
    const beat = beats.get(keys.nodeHeartbeat(node.org, node.id).pk);
    const latest = laterHeartbeat(node.lastHeartbeat, beat);
    return latest === node.lastHeartbeat ? node : { ...node, lastHeartbeat: latest };
  });
}
