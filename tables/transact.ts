import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client.ts';

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

const MAX_CONFLICT_RETRIES = 5;

/**
 * Writes all items or none. Conflicts with a concurrent transaction are retried with jittered
 * backoff; a failed condition throws TransactionFailed naming the items that failed.
 */
export async function transactWrite(items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (codes.includes('ConditionalCheckFailed')) {
        const reasons = error.CancellationReasons ?? [];
        const found = reasons.some((reason) => reason.Item) ? items.map((_, i) => reasons[i]?.Item) : [];
        throw new TransactionFailed(
          items.map((_, i) => codes[i] === 'ConditionalCheckFailed'),
          found,
        );
      }
      const retriable = codes.some((code) => code === 'TransactionConflict');
      if (!retriable || attempt >= MAX_CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt * Math.random()));
    }
  }
}
