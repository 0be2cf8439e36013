import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { type ChangeRow, type FeedPosition, sequenceForRead } from './changes.ts';
import { feedKeys } from './keys.ts';

interface ChangeQuery {
  /** Org feeds to read; `'*'` reads every org's (the all-orgs partition). */
  orgs: string[];
  /** Rows with an id ≥ this (0: from the oldest kept). */
  fromId: number;
  /** Rows updated at or after this ISO time (when not reading by id). */
  since?: string;
  /** Which rows the caller may see. */
  visible: (row: ChangeRow) => boolean;
  /** The reading node, which reads its own feeds (tables/feed/keys.ts `ofNode`), not its org's. */
  node?: { org: string; id: string };
  max: number;
  /**
   * False: when another reader is numbering, read what is numbered so far rather than wait for the
   * rows pending when the read began (sequencePendingChanges' `waitForOthers`).
   */
  waitForPending?: boolean;
}

/**
 * DynamoDB Queries one feed read may make (besides numbering what is pending), whatever the
 * request asks: a reader whose rows are mostly hidden from it, or whose `lastUpdated` skips most of
 * the feed, gets what these pages held and a place to continue from (`readUpTo`), not a walk
 * through the whole feed in one request.
 */
export const FEED_PAGES_PER_READ = 8;
/** Beyond this many org partitions (root's or a multi-tenant agbot's `orgList`), the all-orgs one is read, filtered. */
const MAX_ORG_PARTITIONS = 3;

interface ChangeRead {
  /** The visible rows, oldest first, at most `max`. */
  rows: ChangeRow[];
  /** The newest change id when the read began (after numbering what was pending). */
  newest: number;
  /**
   * Set when the page budget ran out before `max` rows were found: every row up to this id was
   * examined, so the reader continues from `readUpTo + 1` (undefined: nothing left unread).
   */
  readUpTo?: number;
}

/**
 * The caller's next `max` visible change rows, oldest first, after numbering what is pending
 * (tables/feed/changes.ts). Each partition (the orgs' feeds and the public one, the all-orgs feed for
 * a long org list, or a node's own feeds) is read from `fromId` with strongly consistent Queries until it has given `max`
 * visible rows, ends, or has used its share of FEED_PAGES_PER_READ. So the calls grow with the
 * rows returned, and never past that budget, whatever the rows the caller may not see.
 * Expired rows are dropped: DynamoDB's TTL deletes them late.
 */
export async function readChanges(query: ChangeQuery, now: Date = new Date()): Promise<ChangeRead> {
  const position = await sequenceForRead({ waitForOthers: query.waitForPending ?? true });
  const { newest } = position;
  // Nothing was numbered at or after the caller's id: the idle poll ends here (one Query).
  if (query.max <= 0 || query.fromId > newest) return { rows: [], newest };
  const orgs = new Set(query.orgs);
  const nodeFeeds = nodeFeedsOf(query, position);
  const readAll = !nodeFeeds && (orgs.has('*') || orgs.size > MAX_ORG_PARTITIONS);
  const partitions =
    nodeFeeds ??
    (readAll
      ? [feedKeys.allPartition]
      : [...orgs].map(feedKeys.orgPartition).concat(feedKeys.publicPartition));
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const keep = (row: ChangeRow) =>
    row.ttl > nowSeconds &&
    (!readAll || orgs.has('*') || orgs.has(row.org) || row.public) &&
    // The nodes' shared feed holds every org's rows: the node's own org's and public ones are its.
    (!nodeFeeds || row.org === query.node?.org || row.public) &&
    (query.since === undefined || row.lastUpdated >= query.since) &&
    query.visible(row);
  const pages = Math.max(1, Math.floor(FEED_PAGES_PER_READ / partitions.length));
  // Up to `newest` only: rows numbered after the read began wait for the next read, since a
  // partition read later than another may hold ids the other could not show yet.
  const ids = { from: query.fromId, to: newest };
  const read = await Promise.all(partitions.map((pk) => readPartition(pk, ids, query.max, pages, keep)));
  // A partition cut short was examined up to its last id: rows of others past it wait for the next read.
  const cut = read.filter((part) => part.cutAt !== undefined).map((part) => part.cutAt as number);
  const readUpTo = cut.length > 0 ? Math.min(...cut) : undefined;
  const byId = new Map<number, ChangeRow>();
  for (const row of read.flatMap((part) => part.rows)) {
    if (readUpTo === undefined || row.changeId <= readUpTo) byId.set(row.changeId, row);
  }
  const rows = [...byId.values()].sort((a, b) => a.changeId - b.changeId).slice(0, query.max);
  return rows.length === query.max || readUpTo === undefined ? { rows, newest } : { rows, newest, readUpTo };
}

/**
 * A node's partitions, when the nodes' feeds hold every row from its id on: its own, and the
 * shared one only when a row was numbered there since (else undefined: its org's feed is read).
 */
function nodeFeedsOf(query: ChangeQuery, position: FeedPosition): string[] | undefined {
  const marks = position.nodeFeeds;
  if (!query.node || !marks || query.fromId < marks.from) return undefined;
  const own = feedKeys.nodePartition(query.node.org, query.node.id);
  return query.fromId <= marks.sharedUpTo ? [own, feedKeys.nodesSharedPartition] : [own];
}

interface PartitionRead {
  rows: ChangeRow[];
  /** The last id examined when the page budget ran out with more rows left; else undefined. */
  cutAt?: number;
}

async function readPartition(
  pk: string,
  ids: { from: number; to: number },
  max: number,
  pages: number,
  keep: (row: ChangeRow) => boolean,
): Promise<PartitionRead> {
  const rows: ChangeRow[] = [];
  let startKey: Record<string, unknown> | undefined;
  let lastId = ids.from - 1;
  for (let page = 0; page < pages; page++) {
    const answer = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': feedKeys.sortKeyFrom(ids.from),
          ':to': feedKeys.sortKeyFrom(ids.to),
        },
        ConsistentRead: true,
        // A page a little larger than needed: rows the caller may not see are skipped.
        Limit: Math.min(1000, max + 25),
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (answer.Items ?? []) as ChangeRow[]) {
      lastId = item.changeId;
      if (keep(item)) rows.push(item);
      if (rows.length >= max) return { rows };
    }
    startKey = answer.LastEvaluatedKey;
    if (!startKey) return { rows };
  }
  return { rows, cutAt: lastId };
}
