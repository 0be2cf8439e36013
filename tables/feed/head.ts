import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../client.ts';
import { isTransactionConflict } from '../kernel/retry-on-conflict.ts';
import { sleep } from '../kernel/sleep.ts';
import type { TransactItem } from '../kernel/transact.ts';
import { feedKeys } from './keys.ts';

/**
 * The head of the pending partition (`PENDINGCHANGES`/`#HEAD`): a copy of the feed's sequence, and
 * the numbering lease. Readers that find pending rows at the same moment would all send the same
 * numbering transaction and all but one fail; each failed transaction of ~100 items costs as much
 * as one that succeeds, and on a busy feed the losers kept one call at it for 46 s. So a reader
 * first claims the lease (one small conditional write), only the holder numbers, and the others
 * watch the head and the oldest pending row (one small Query each time) until their own rows are
 * numbered, or the holder gives the lease up or it lapses.
 */
export interface FeedHead {
  /** Absent until the first numbering transaction (a claim can create the item). */
  seq?: number;
  numberer?: string;
  leasedUntil: number;
  /** Where the nodes' own feeds stand; absent on a feed last numbered before they existed. */
  nodeFeeds?: NodeFeedMarks;
}

/**
 * The nodes' feeds (tables/feed/keys.ts `ofNode`, `ofNodesShared`), as of the head's `seq`: every
 * row numbered from `from` on is in them, so a node reading from an id below it reads its org's
 * feed instead; `sharedUpTo` is the newest id in the shared partition (0: none), so a node whose
 * next id is past it reads only its own partition.
 */
export interface NodeFeedMarks {
  from: number;
  sharedUpTo: number;
}

/** Renewed by every batch the holder numbers; a holder that stops answering loses it after this. */
const LEASE_MS = 2_000;

export const toHead = (item: Record<string, unknown>): FeedHead => ({
  seq: item.seq === undefined ? undefined : Number(item.seq),
  numberer: typeof item.numberer === 'string' ? item.numberer : undefined,
  leasedUntil: Number(item.leasedUntil ?? 0),
  ...(item.nodeFeedsFrom === undefined
    ? {}
    : { nodeFeeds: { from: Number(item.nodeFeedsFrom), sharedUpTo: Number(item.nodesSharedUpTo ?? 0) } }),
});

export const leasedToAnother = (head: FeedHead | undefined, caller: string): boolean =>
  head?.numberer !== undefined && head.numberer !== caller && head.leasedUntil > Date.now();

/** Takes the lease unless another reader holds a live one; true when `caller` holds it now. */
export async function claimLease(caller: string): Promise<boolean> {
  const now = Date.now();
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'SET numberer = :caller, leasedUntil = :until',
        ConditionExpression: 'attribute_not_exists(numberer) OR numberer = :caller OR leasedUntil < :now',
        ExpressionAttributeValues: { ':caller': caller, ':until': now + LEASE_MS, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    // A numbering transaction holds the head right now: someone is numbering.
    if (isTransactionConflict(error)) return false;
    throw error;
  }
}

/**
 * The head as a numbering transaction writes it: the new sequence, where the nodes' feeds stand,
 * and the lease renewed for the holder's next batch, or given up (`holder` undefined) with its last.
 */
export const headWrite = (seq: number, nodeFeeds: NodeFeedMarks, holder?: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...feedKeys.head(),
      seq,
      nodeFeedsFrom: nodeFeeds.from,
      nodesSharedUpTo: nodeFeeds.sharedUpTo,
      ...(holder ? { numberer: holder, leasedUntil: Date.now() + LEASE_MS } : {}),
    },
  },
});

/** The kernel's sleep, spread by up to `jitterMs` so waiting readers do not poll in step. */
export const pause = (minMs: number, jitterMs: number): Promise<void> =>
  sleep(minMs + Math.random() * jitterMs);

/** Gives the lease up if `caller` still holds it. */
export async function releaseLease(caller: string): Promise<void> {
  await documentClient
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'REMOVE numberer, leasedUntil',
        ConditionExpression: 'numberer = :caller',
        ExpressionAttributeValues: { ':caller': caller },
      }),
    )
    // Lapsed and taken by another reader, or held by a numbering transaction: nothing to give up.
    .catch((error: unknown) => {
      if (!(error instanceof ConditionalCheckFailedException) && !isTransactionConflict(error)) throw error;
    });
}
