import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type ChangeRow, sequencePendingChanges } from './changes.ts';
import { documentClient, tableName } from './client.ts';
import { changeRowKeys } from './keys.ts';

export interface ChangeQuery {
  /** Org feeds to read; `'*'` reads every org's (the all-orgs partition). */
  orgs: string[];
  /** Rows with an id ≥ this (0: from the oldest kept). */
  fromId: number;
  /** Rows updated at or after this ISO time (when not reading by id). */
  since?: string;
  /** Which rows the caller may see. */
  visible: (row: ChangeRow) => boolean;
  max: number;
}

export interface ChangeFeedPage {
  rows: ChangeRow[];
  /** The newest change id when the read began (after numbering what was pending). */
  newest: number;
}

/**
 * The caller's next `max` visible change rows, oldest first, after numbering what is pending
 * (tables/changes.ts). Each partition (the orgs' feeds and the public one) is read from `fromId`
 * with strongly consistent Queries until it has given `max` visible rows or ends, so the calls
 * grow with the rows returned (and with rows the caller may not see), never with the table.
 * Expired rows are dropped: DynamoDB's TTL deletes them late.
 */
export async function readChanges(query: ChangeQuery, now: Date = new Date()): Promise<ChangeFeedPage> {
  const newest = await sequencePendingChanges();
  // Nothing was numbered at or after the caller's id: the idle poll ends here (one Query).
  if (query.max <= 0 || query.fromId > newest) return { rows: [], newest };
  const partitions = query.orgs.includes('*')
    ? [changeRowKeys.allPartition]
    : [...new Set(query.orgs)].map(changeRowKeys.orgPartition).concat(changeRowKeys.publicPartition);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const keep = (row: ChangeRow) =>
    row.ttl > nowSeconds &&
    (query.since === undefined || row.lastUpdated >= query.since) &&
    query.visible(row);
  const perPartition = await Promise.all(
    partitions.map((pk) => readPartition(pk, query.fromId, query.max, keep)),
  );
  const byId = new Map<number, ChangeRow>();
  for (const row of perPartition.flat()) byId.set(row.changeId, row);
  return { rows: [...byId.values()].sort((a, b) => a.changeId - b.changeId).slice(0, query.max), newest };
}

async function readPartition(
  pk: string,
  fromId: number,
  max: number,
  keep: (row: ChangeRow) => boolean,
): Promise<ChangeRow[]> {
  const rows: ChangeRow[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': pk, ':from': changeRowKeys.sortKeyFrom(fromId) },
        ConsistentRead: true,
        // A page a little larger than needed: rows the caller may not see are skipped.
        Limit: Math.min(1000, max + 25),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (page.Items ?? []) as ChangeRow[]) {
      if (keep(item)) rows.push(item);
      if (rows.length >= max) return rows;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return rows;
}
