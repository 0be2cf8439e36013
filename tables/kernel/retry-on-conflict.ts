import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { sleep } from './sleep.ts';

/** Runs after the first before a conflict is let through to the caller. */
export const CONFLICT_RETRIES = 5;
/** The pause before retry `attempt` (0, 1, …): jittered, up to 10 ms doubling. */
const conflictBackoff = (attempt: number): number => 10 * 2 ** attempt * Math.random();

/**
 * Whether a write lost a race with a concurrent transaction on the same item: a plain write's
 * TransactionConflictException, or a transaction cancelled for a `TransactionConflict`.
 * Not a failed condition: that is an answer about the data, and running again would not change it.
 */
export const isTransactionConflict = (error: unknown): boolean =>
  (error instanceof Error && error.name === 'TransactionConflictException') ||
  (error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict'));

interface RetryOptions {
  retries?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs `write`, and runs it again after a jittered pause each time it meets a concurrent
 * transaction, at most `retries` more times; any other error, and the last conflict, go to the caller.
 */
export async function retryOnConflict<T>(write: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = options.retries ?? CONFLICT_RETRIES;
  const pause = options.sleep ?? sleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= retries) throw error;
      await pause(conflictBackoff(attempt));
    }
  }
}
