import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { QueryCommand } from 'dynamodb-toolbox';
import { documentClient, tableName } from '../client.ts';
import type { TransactItem } from '../kernel/transact.ts';
import { orgKeys } from '../keys/org.ts';
import { userKeys } from '../keys/user.ts';
import { ExchangeTable } from '../table.ts';

/**
 * Counters kept beside each org (`ORG#<org>` / `STATS`) and each user (`USER#<org>/<u>` / `STATS`),
 * changed in the same transaction as the records they count. Status endpoints read them instead
 * of counting, and limits are enforced by conditions on them.
 */
export const COUNTERS = [
  'users',
  /** Users with `admin` or `hubAdmin`: what a hub admin's status counts. */
  'adminUsers',
  'nodes',
  'registeredNodes',
  'agbots',
  'agbotAgreements',
  'agbotMsgs',
  'nodeAgreements',
  'nodeMsgs',
] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counts = Record<Counter, number>;

export const zeroCounts = (): Counts => Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counts;

const toCounts = (raw: Record<string, unknown> | undefined): Counts => {
  const counts = zeroCounts();
  for (const counter of COUNTERS) counts[counter] = Number(raw?.[counter] ?? 0);
  return counts;
};

// Raw reads: the counter items are written by raw updates (counterUpdate below), so they carry
// no `org`/`scope` attributes for the entity formatter to find.
async function getCounts(key: { pk: string; sk: string }): Promise<Counts> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: tableName(), Key: key }));
  return toCounts(Item);
}

export const getOrgCounts = (org: string): Promise<Counts> => getCounts(orgKeys.stats(org));

export const getUserCounts = (org: string, username: string): Promise<Counts> =>
  getCounts(userKeys.stats(org, username));

/** Every org's counters in one Query (gsi1 `STATS`), for the server-wide status. */
export async function listOrgCounts(): Promise<Map<string, Counts>> {
  const result = new Map<string, Counts>();
  const { Items = [] } = await ExchangeTable.build(QueryCommand)
    .query({ index: 'gsi1', partition: orgKeys.allStatsIndex })
    .options({ maxPages: Number.POSITIVE_INFINITY })
    .send();
  for (const raw of Items as Record<string, unknown>[]) result.set(String(raw.gsi1sk), toCounts(raw));
  return result;
}

interface CounterChange {
  deltas: Partial<Counts>;
  /** Refuse the whole transaction when `counter` would go past `max` (0 = unlimited). */
  limit?: { counter: Counter; max: number };
}

function counterUpdate(key: { pk: string; sk: string }, change: CounterChange, index?: string): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  for (const [counter, delta] of Object.entries(change.deltas)) {
    if (!delta) continue;
    names[`#${counter}`] = counter;
    values[`:${counter}`] = delta;
    adds.push(`#${counter} :${counter}`);
  }
  const sets = index ? ' SET gsi1pk = :gsi1pk, gsi1sk = :gsi1sk' : '';
  if (index) Object.assign(values, { ':gsi1pk': orgKeys.allStatsIndex, ':gsi1sk': index });
  let condition: string | undefined;
  const limit = change.limit;
  if (limit && limit.max > 0) {
    names['#limited'] = limit.counter;
    values[':limitBelow'] = limit.max - (change.deltas[limit.counter] ?? 0) + 1;
    condition = 'attribute_not_exists(#limited) OR #limited < :limitBelow';
  }
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `${adds.length ? `ADD ${adds.join(', ')}` : ''}${sets}`.trim(),
      ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
      ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
      ConditionExpression: condition,
    },
  };
}

export const orgCounterUpdate = (org: string, change: CounterChange): TransactItem =>
  counterUpdate(orgKeys.stats(org), change, org);

export const userCounterUpdate = (org: string, username: string, change: CounterChange): TransactItem =>
  counterUpdate(userKeys.stats(org, username), change);
