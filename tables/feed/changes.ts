import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { aboutANode, sharedWithNodes } from '#lib/feed/visibility';
import { epochSeconds } from '#lib/time';
import { documentClient, tableName } from '../client.ts';
import { type TransactItem, TransactionFailed, transactWrite } from '../kernel/transact.ts';
import {
  claimLease,
  type FeedHead,
  headWrite,
  leasedToAnother,
  type NodeFeedMarks,
  pause,
  releaseLease,
  toHead,
} from './head.ts';
import { feedKeys } from './keys.ts';

/** Upstream's four operations; `created/modified` is a PUT that may have created. */
export type ChangeOperation = 'created' | 'created/modified' | 'modified' | 'deleted';

/** One change-feed row as a writer describes it (docs/exchange.md#change-feed, docs/exchange-catalog.md#change-rows). */
export interface Change {
  /** The org the changed resource belongs to. */
  org: string;
  /** The resource's id without its org (node id, service id, pattern name, secret name...). */
  id: string;
  /** Upstream's resource name: `node`, `nodepolicies`, `service`, `pattern`, `policy`, `secret`... */
  resource: string;
  operation: ChangeOperation;
  /** Public rows (public services and patterns) are seen by every org's readers. */
  public?: boolean;
  /**
   * The node the row is about wrote it itself (its own agreement rows): the row is in its feed as
   * any other, but the signal dispatcher does not wake it for it (lib/feed/visibility.ts).
   */
  byItsNode?: boolean;
}

/** What a stored row says of its change (who wrote it only decides whom it wakes, and is not kept). */
type StoredChange = Required<Omit<Change, 'byItsNode'>>;

/** A sequenced row as readers get it. */
export interface ChangeRow extends StoredChange {
  changeId: number;
  lastUpdated: string;
  ttl: number;
}

/** Rows expire after 4 hours, as upstream trims its change log. */
export const CHANGE_TTL_SECONDS = 4 * 60 * 60;
/** Pending rows read per numbering batch: most take 4 of a transaction's 100 items, none more than 5. */
const SEQUENCE_BATCH = 24;
/** A numbering transaction's items besides the sequence and the head. */
const ROW_ITEMS_PER_TRANSACTION = 98;
/**
 * When a call's first read sees a backlog, it numbers the rows written before it started plus
 * this much for clocks of other instances that run ahead: a write acknowledged before the read
 * began is always covered.
 */
const CLOCK_MARGIN_MS = 1_000;
/** The longest a watcher waits between two looks at the oldest pending row (plus as much jitter). */
const WATCH_MAX_MS = 200;
/**
 * How long a call waits for its rows to be numbered before it fails (inside the functions' 29 s).
 * It never answers without them: a node woken by a signal polls once, and a read that left out
 * the change it was woken for would leave the node waiting for its next scheduled poll.
 */
const SEQUENCE_PATIENCE_MS = 25_000;
/**
 * A read that does not wait for other numberers (a node's) numbers only when the oldest pending
 * row is older than this: the signal dispatcher numbers every row within moments of its write
 * (functions/signals/dispatch.ts), so a node that numbered too would only add calls. A row this old
 * means the dispatcher is behind or down, and the node helps, so rows are never stranded.
 */
export const NODE_NUMBERING_GRACE_MS = 10_000;

/** A call whose rows were not numbered within SEQUENCE_PATIENCE_MS (the client retries). */
export class FeedNumberingTimeout extends Error {
  constructor() {
    super(`the change feed's pending rows were not numbered within ${SEQUENCE_PATIENCE_MS} ms`);
    this.name = 'FeedNumberingTimeout';
  }
}

/**
 * Writes `items` and records `changes` in ONE transaction, so a change exists exactly when its
 * write happened (a rejected write records nothing). Each change is stored as a pending row, keyed
 * by write time, a random id and its place in the write: writers never touch a shared item, so they never contend.
 * Readers number pending rows with `sequencePendingChanges` before reading. A failed condition
 * throws TransactionFailed indexed by `items`, as `transactWrite` does.
 */
export async function transactWriteWithChanges(
  items: TransactItem[],
  changes: Change[],
  now: Date = new Date(),
): Promise<void> {
  // One key prefix per write; the index keeps one write's changes in the order given.
  const writeKey = `${now.toISOString()}#${randomUUID()}`;
  const pending = changes.map((change, index) =>
    pendingPut(change, `${writeKey}#${String(index).padStart(3, '0')}`, now),
  );
  try {
    await transactWrite([...items, ...pending]);
  } catch (error) {
    if (error instanceof TransactionFailed)
      throw new TransactionFailed(error.failed.slice(0, items.length), error.oldItems.slice(0, items.length));
    throw error;
  }
}

/** Records change rows alone (for writes that have nothing else to put in the transaction). */
export const recordChanges = (changes: Change[], now?: Date): Promise<void> =>
  transactWriteWithChanges([], changes, now);

/**
 * This instance's guess of the feed's last id. A right guess saves a read; a wrong one fails the
 * sequence condition, whose ALL_OLD reason carries the true value for the next attempt.
 */
let sequenceGuess = 0;

/**
 * Numbers the pending rows written before this call, oldest first, and returns the newest id (0
 * before the first change). Each batch is one transaction that moves the sequence item
 * (`CHANGES`/`SEQ`) from n to n + k only if it still holds n, deletes the k pending rows only if
 * they are still there, puts their numbered rows, and copies n + k to the head of the pending
 * partition. So ids are handed out in commit order and each pending row is numbered once, however
 * many readers sequence at the same time: a reader that has seen id m never later finds a row
 * below m (tables/README.md, "The change feed"). With nothing pending this is one Query, which also
 * reads the head: an idle feed read.
 *
 * Only the reader holding the numbering lease numbers; the others watch the oldest pending row and
 * the head (one small Query each time) until their rows are numbered or the lease is free
 * (tables/feed/head.ts). With `waitForOthers: false` (a node's read, whose changes the signal
 * dispatcher numbers before it wakes the node: functions/signals/dispatch.ts) a call answers at
 * once with the newest id numbered so far, unless the oldest pending row is older than
 * NODE_NUMBERING_GRACE_MS and the lease is free: then it numbers as any reader.
 */
export async function sequencePendingChanges(options: { waitForOthers?: boolean } = {}): Promise<number> {
  return (await sequenceForRead(options)).newest;
}

/** Where the feed stands for a read: the newest id numbered, and the nodes' feeds as of it. */
export interface FeedPosition {
  newest: number;
  /** Absent when unknown (a feed last numbered before the nodes' feeds): nodes read their org's. */
  nodeFeeds?: NodeFeedMarks;
}

/** `sequencePendingChanges`, answering where the nodes' feeds stand as of the newest id too. */
export async function sequenceForRead(options: { waitForOthers?: boolean } = {}): Promise<FeedPosition> {
  if (options.waitForOthers === false) {
    // One small Query: the head, and the oldest pending row to tell whether the dispatcher is behind
    // (when it is, the lease loop below reads the pending rows again: rare, and only then).
    const { pending, head } = await pendingWithHead(1);
    if (!numberingOverdue(pending[0])) return positionOf(head);
  }
  const lease = { caller: randomUUID(), holding: false };
  try {
    return await sequenceUnderLease(lease, options.waitForOthers ?? true);
  } finally {
    // A call that stops between batches gives the lease up at once, rather than in 2 s.
    if (lease.holding) await releaseLease(lease.caller);
  }
}

async function sequenceUnderLease(
  lease: { caller: string; holding: boolean },
  waitForOthers: boolean,
): Promise<FeedPosition> {
  const started = Date.now();
  let cutoff: string | undefined;
  let watching = false;
  // A watcher looks every 50-100 ms at first, then less often the longer it has waited (a thousand
  // readers woken together wait seconds, and each look is a Query): at most every WATCH_MAX_MS.
  let watchMs = 50;
  const watchPause = async () => {
    await pause(watchMs, watchMs);
    watchMs = Math.min(watchMs * 1.5, WATCH_MAX_MS);
  };
  while (Date.now() - started < SEQUENCE_PATIENCE_MS) {
    // While another reader numbers, the oldest pending row is enough to tell whether this call's
    // rows are numbered yet and whether the lease is still held.
    const { pending, head } = await pendingWithHead(watching ? 1 : SEQUENCE_BATCH);
    cutoff ??= rowsToNumber(pending, started);
    // The head moves in the numbering transaction itself: a better guess than this instance's.
    if (head?.seq !== undefined) sequenceGuess = Math.max(sequenceGuess, head.seq);
    const oldest = pending[0];
    const ownRowsNumbered = oldest === undefined || oldest.sk > cutoff;
    if (!ownRowsNumbered && !lease.holding)
      lease.holding = !leasedToAnother(head, lease.caller) && (await claimLease(lease.caller));
    // Without waiting for another numberer, what it has numbered so far is a consistent answer
    // (ids are handed out in commit order): the rows it is numbering come with the next read.
    if (ownRowsNumbered || (!lease.holding && !waitForOthers)) return positionOf(head);
    if (!lease.holding || watching) {
      // Another reader numbers: look again shortly, and answer as soon as this call's own rows are
      // numbered rather than when the holder's whole run (maybe far past them) is. A new holder
      // reads its batch first.
      watching = !lease.holding;
      if (watching) await watchPause();
      continue;
    }
    const batch = fittingOneTransaction(pending);
    const from = sequenceGuess;
    const to = from + batch.length;
    // This call's last batch, which holds every row up to its cutoff, gives the lease up.
    const last =
      (batch.at(-1)?.sk ?? '') >= cutoff ||
      (batch.length === pending.length && pending.length < SEQUENCE_BATCH);
    const nodeFeeds = nodeFeedsAfter(head?.nodeFeeds, batch, from);
    try {
      await documentClient.send(
        new TransactWriteCommand({
          TransactItems: [
            sequenceAdvance(from, to),
            headWrite(to, nodeFeeds, last ? undefined : lease.caller),
            ...batch.flatMap((row, i) => numberedRowWrites(row, from + 1 + i)),
          ],
        }),
      );
      sequenceGuess = to;
      lease.holding = !last;
      if (last) return { newest: to, nodeFeeds };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // The stored sequence is the truth, even below the guess (dropdb restarts it).
      const sequenceReason = error.CancellationReasons?.[0];
      if (sequenceReason?.Code === 'ConditionalCheckFailed')
        sequenceGuess = storedSequence(sequenceReason.Item);
      // A lease that lapsed let another reader number these rows, or a transaction conflicted.
      await pause(5, 25);
    }
  }
  throw new FeedNumberingTimeout();
}

/** True when `oldest` was written more than NODE_NUMBERING_GRACE_MS ago (pending keys start with the write time). */
function numberingOverdue(oldest: PendingRow | undefined): boolean {
  return oldest !== undefined && oldest.sk < new Date(Date.now() - NODE_NUMBERING_GRACE_MS).toISOString();
}

/** The position the head read shows; without a head, the sequence item's (nodes' feeds unknown). */
async function positionOf(head: FeedHead | undefined): Promise<FeedPosition> {
  if (head?.seq === undefined) return { newest: await numberedUpTo() };
  return head.nodeFeeds ? { newest: head.seq, nodeFeeds: head.nodeFeeds } : { newest: head.seq };
}

/** The oldest pending rows whose numbered copies fit one transaction beside the sequence and head. */
function fittingOneTransaction(pending: PendingRow[]): PendingRow[] {
  let items = 0;
  const batch: PendingRow[] = [];
  for (const row of pending) {
    items += placementsOf(row, 0).length + 1;
    if (items > ROW_ITEMS_PER_TRANSACTION) break;
    batch.push(row);
  }
  return batch;
}

/**
 * The nodes' feeds once `batch` is numbered from `from` + 1. A head that does not say where they
 * stand (a feed numbered before them, or by an older version during a deployment) starts them at
 * this batch: readers from an id below it read their org's feed, which holds every row.
 */
function nodeFeedsAfter(before: NodeFeedMarks | undefined, batch: PendingRow[], from: number): NodeFeedMarks {
  const shared = batch.findLastIndex((row) => sharedWithNodes(row));
  return {
    from: before?.from ?? from + 1,
    sharedUpTo: shared >= 0 ? from + 1 + shared : (before?.sharedUpTo ?? 0),
  };
}

/**
 * The last sort key a call must see numbered. Every write acknowledged before the call began is
 * in its first read of the pending rows; when that read holds them all, the newest is the end.
 */
function rowsToNumber(firstRead: PendingRow[], started: number): string {
  const newest = firstRead.at(-1);
  if (newest && firstRead.length < SEQUENCE_BATCH) return newest.sk;
  return new Date(started + CLOCK_MARGIN_MS).toISOString();
}

/** The newest change id, after numbering what is pending (0 before the first change). */
export const maxChangeId = (): Promise<number> => sequencePendingChanges();

/** The newest change id numbered so far, read from the sequence item itself. */
export async function numberedUpTo(): Promise<number> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: feedKeys.sequence(), ConsistentRead: true }),
  );
  const value = Number(Item?.seq ?? 0);
  sequenceGuess = Math.max(sequenceGuess, value);
  return value;
}

/** Forgets the guess (dropdb empties the table and restarts the sequence). */
export function forgetChangeSequence(): void {
  sequenceGuess = 0;
}

type PendingRow = StoredChange & {
  pk: string;
  sk: string;
  lastUpdated: string;
  ttl: number;
  byItsNode?: boolean;
};

function pendingPut(change: Change, sortKey: string, now: Date): TransactItem {
  const row = {
    ...feedKeys.pending(sortKey),
    org: change.org,
    id: change.id,
    resource: change.resource,
    operation: change.operation,
    public: change.public === true,
    ...(change.byItsNode ? { byItsNode: true } : {}),
    lastUpdated: now.toISOString(),
    // A pending row nobody sequenced within the feed's lifetime would only be dropped on reading.
    ttl: epochSeconds(now) + CHANGE_TTL_SECONDS,
  };
  return { Put: { TableName: tableName(), Item: row } };
}

/**
 * The head (absent on a table whose feed was last numbered before it existed) and the `limit`
 * oldest pending rows, in one strongly consistent Query: the head's `#` sorts before any write time.
 */
async function pendingWithHead(limit: number): Promise<{ pending: PendingRow[]; head?: FeedHead }> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': feedKeys.pendingPartition },
      ConsistentRead: true,
      Limit: limit + 1,
    }),
  );
  const headKey = feedKeys.head();
  const head = Items.find((item) => item.sk === headKey.sk);
  const pending = Items.filter((item) => item.sk !== headKey.sk).slice(0, limit) as PendingRow[];
  return head ? { pending, head: toHead(head) } : { pending };
}

function sequenceAdvance(from: number, to: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: feedKeys.sequence(),
      UpdateExpression: 'SET seq = :to',
      ConditionExpression: from === 0 ? 'attribute_not_exists(seq)' : 'seq = :from',
      ExpressionAttributeValues: { ':to': to, ...(from === 0 ? {} : { ':from': from }) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Where a numbered row goes: its org's feed and every org's; the public feed when public; and
 * what nodes read: the node's own feed for a row about one node, the shared one for a row every
 * node of the org may see (tables/feed/keys.ts).
 */
function placementsOf(change: StoredChange, changeId: number): { pk: string; sk: string }[] {
  const placements = [feedKeys.ofOrg(change.org, changeId), feedKeys.ofAll(changeId)];
  if (change.public) placements.push(feedKeys.ofPublic(changeId));
  if (aboutANode(change)) placements.push(feedKeys.ofNode(change.org, change.id, changeId));
  else if (sharedWithNodes(change)) placements.push(feedKeys.ofNodesShared(changeId));
  return placements;
}

/** Deletes the pending row (only if still there) and puts its numbered copies. */
function numberedRowWrites(pending: PendingRow, changeId: number): TransactItem[] {
  // Who wrote a row only decides whom it wakes: the numbered rows readers get do not keep it.
  const { pk, sk, byItsNode: _signalOnly, ...change } = pending;
  const row: ChangeRow = { ...change, changeId };
  return [
    { Delete: { TableName: tableName(), Key: { pk, sk }, ConditionExpression: 'attribute_exists(pk)' } },
    ...placementsOf(change, changeId).map((key) => ({
      Put: { TableName: tableName(), Item: { ...key, ...row } },
    })),
  ];
}

/** The sequence value in a cancellation reason's item (raw attribute values: `{ seq: { N } }`). */
function storedSequence(item: Record<string, unknown> | undefined): number {
  const seq = item?.seq as { N?: string } | number | undefined;
  if (seq === undefined) return 0;
  return typeof seq === 'number' ? seq : Number(seq.N ?? 0);
}
