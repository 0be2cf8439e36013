import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client.ts';
import { retryOnConflict } from './retry-on-conflict.ts';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * A transaction DynamoDB refused; `failed[i]` is true where item i's condition did not hold, and
 * `oldItems[i]` is what item i found (raw attribute values) when it asked for ALL_OLD.
 */
export class TransactionFailed extends Error {
  constructor(
    readonly failed: boolean[],
    readonly oldItems: (Record<string, unknown> | undefined)[] = [],
  ) {
    super('transaction condition failed');
    this.name = 'TransactionFailed';
  }
}

/**
 * Writes all items or none. Conflicts with a concurrent transaction are retried with jittered
 * backoff; a failed condition throws TransactionFailed naming the items that failed.
 */
export const transactWrite = (items: TransactItem[]): Promise<void> =>
  retryOnConflict(async () => {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      throw failedConditions(items, error) ?? error;
    }
  });

/** TransactionFailed when `error` cancelled the transaction for a failed condition (not retried). */
function failedConditions(items: TransactItem[], error: unknown): TransactionFailed | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons = error.CancellationReasons ?? [];
  const codes = reasons.map((reason) => reason.Code);
  if (!codes.includes('ConditionalCheckFailed')) return undefined;
  const found = reasons.some((reason) => reason.Item) ? items.map((_, i) => reasons[i]?.Item) : [];
  return new TransactionFailed(
    items.map((_, i) => codes[i] === 'ConditionalCheckFailed'),
    found,
  );
}
