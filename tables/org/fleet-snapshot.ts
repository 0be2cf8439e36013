import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { orgKeys } from '../keys/org.ts';

/**
 * The console's last fleet summary of an org (docs/console.md#routes), kept in the org's partition
 * (`ORG#<org>` / `FLEETSUMMARY#<owner>`, `*` for the whole org) so a new instance, or a console
 * that accepts an older answer for its first render, reads one item instead of every node. Deleted
 * with the org's partition. The summary is JSON text (a few KB: counts only).
 */
const key = (org: string, owner: string | undefined) => ({
  pk: orgKeys.record(org).pk,
  sk: `FLEETSUMMARY#${owner ?? '*'}`,
});

export interface FleetSnapshot {
  /** When it was computed (ISO). */
  at: string;
  summary: unknown;
}

/** One GetItem (eventually consistent: 0.5 RCU for up to 4 KB). */
export async function getFleetSnapshot(
  org: string,
  owner: string | undefined,
): Promise<FleetSnapshot | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: key(org, owner) }),
  );
  if (!Item || typeof Item.summary !== 'string' || typeof Item.at !== 'string') return undefined;
  return { at: Item.at, summary: JSON.parse(Item.summary) };
}

/** One PutItem (1 WCU a KB); the later computation wins, an earlier one never replaces it. */
export async function putFleetSnapshot(
  org: string,
  owner: string | undefined,
  snapshot: FleetSnapshot,
): Promise<void> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key(org, owner), at: snapshot.at, summary: JSON.stringify(snapshot.summary) },
        ConditionExpression: 'attribute_not_exists(pk) OR #at < :at',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':at': snapshot.at },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
