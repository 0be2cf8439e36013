import { afterAll, beforeAll } from 'vitest';
import type { StreamReader } from '../../scripts/local/stream-reader.ts';
import { startInProcessStreamConsumer } from './stream-consumer.ts';

/**
 * The org counters of messages and agreements move from the table's stream, not in the request
 * (tables/org/stream-counts.ts): this file runs the stack's stream consumer on its table
 * (test/support/stream-consumer.ts). Call after `useTestTable()`; a test reads a counter after
 * `await counting.settled()`: every write made before it has been counted.
 */
export function useStreamCounts(): { settled(): Promise<void> } {
  let reader: StreamReader | undefined;
  beforeAll(async () => {
    reader = await startInProcessStreamConsumer();
  });
  afterAll(async () => {
    await reader?.stop();
  });
  return {
    settled: () =>
      reader ? reader.settled() : Promise.reject(new Error('the stream consumer is not running')),
  };
}
