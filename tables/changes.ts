import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '#lib/time';
import { documentClient, tableName } from './client.ts';
import { changeRowKeys, keys } from './keys.ts';
import { type TransactItem, TransactionFailed } from './transact.ts';

/** Upstream's four operations; `created/modified` is a PUT that may have created. */
export type ChangeOperation = 'created' | 'created/modified' | 'modified' | 'deleted';

/** One change-feed row as a writer describes it (exchange-behavior §12, catalog §1.5). */
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
}

/** Rows expire after 4 hours, as upstream trims its change log. */
export const CHANGE_TTL_SECONDS = 4 * 60 * 60;
/** A transaction holds at most 100 items; the sequence and each change row take one or two. */
const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 200;

/**
 * This instance's guess of the feed's current id. A right guess costs nothing; a wrong one fails
 * the sequence condition, which returns the true value for the next attempt.
 */
let sequenceGuess = 0;

/**
 * Writes `items` and appends `changes` to the change feed in one transaction, so a change row
 * exists exactly when its write happened. Ids come from one sequence item (`CHANGES`/`SEQ`) that
 * the transaction moves from n to n + k only if it still holds n: transactions commit in id
 * order, so a reader that has seen id m never later finds a row below m (tables/README.md, "The
 * change feed"). A failed condition on the caller's items throws TransactionFailed indexed by
 * `items`, exactly as `transactWrite` does. Returns the ids given to `changes`, in order.
 */
export async function transactWriteWithChanges(
  items: TransactItem[],
  changes: Change[],
  now: Date = new Date(),
): Promise<number[]> {
  const rowsPerChange = changes.map((change) => (change.public ? 2 : 1));
  const total = items.length + 1 + rowsPerChange.reduce((sum, n) => sum + n, 0);
  if (total > MAX_TRANSACTION_ITEMS) throw new Error(`a transaction of ${total} items is too large`);
  for (let attempt = 0; ; attempt++) {
    const first = sequenceGuess + 1;
    const ids = changes.map((_, i) => first + i);
    const transaction = [
      ...items,
      sequenceAdvance(sequenceGuess, sequenceGuess + changes.length, now),
      ...changes.flatMap((change, i) => changeRowPuts(change, ids[i] as number, now)),
    ];
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: transaction }));
      sequenceGuess += changes.length;
      return ids;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) || attempt >= MAX_ATTEMPTS) throw error;
      const reasons = error.CancellationReasons ?? [];
      const callerFailed = items.map((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
      if (callerFailed.includes(true)) throw new TransactionFailed(callerFailed);
      const sequenceReason = reasons[items.length];
      if (sequenceReason?.Code === 'ConditionalCheckFailed') {
        sequenceGuess = storedSequence(sequenceReason.Item);
      } else if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) {
        throw error;
      }
      // Racing writers learn the same value; a little jitter lets one of them win each round.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 + attempt)));
    }
  }
}

/** Writes only change rows (for writes that have nothing else to put in the transaction). */
export const recordChanges = (changes: Change[], now?: Date): Promise<number[]> =>
  transactWriteWithChanges([], changes, now);

/** The newest change id handed out (0 before the first change). */
export async function maxChangeId(): Promise<number> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: keys.changeSequence(), ConsistentRead: true }),
  );
  const value = Number(Item?.seq ?? 0);
  sequenceGuess = Math.max(sequenceGuess, value);
  return value;
}

/** Forgets the guess (dropdb empties the table and restarts the sequence). */
export function forgetChangeSequence(): void {
  sequenceGuess = 0;
}

function sequenceAdvance(from: number, to: number, now: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.changeSequence(),
      UpdateExpression: 'SET seq = :to, lastUpdated = :now',
      ConditionExpression: from === 0 ? 'attribute_not_exists(seq)' : 'seq = :from',
      ExpressionAttributeValues: {
        ':to': to,
        ':now': now.toISOString(),
        ...(from === 0 ? {} : { ':from': from }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

function changeRowPuts(change: Change, changeId: number, now: Date): TransactItem[] {
  const row = {
    changeId,
    org: change.org,
    id: change.id,
    resource: change.resource,
    operation: change.operation,
    public: change.public === true,
    lastUpdated: now.toISOString(),
    ttl: epochSeconds(now) + CHANGE_TTL_SECONDS,
  };
  const placements = change.public
    ? [changeRowKeys.ofOrg(change.org, changeId), changeRowKeys.ofPublic(changeId)]
    : [changeRowKeys.ofOrg(change.org, changeId)];
  return placements.map((key) => ({
    Put: {
      TableName: tableName(),
      Item: { ...key, ...row },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
}

/** The sequence value in a cancellation reason's item (raw attribute values: `{ seq: { N } }`). */
function storedSequence(item: Record<string, unknown> | undefined): number {
  const seq = item?.seq as { N?: string } | number | undefined;
  if (seq === undefined) return 0;
  return typeof seq === 'number' ? seq : Number(seq.N ?? 0);
}
