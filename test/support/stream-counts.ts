import { afterAll, beforeAll } from 'vitest';
import { type Counts, getOrgCounts } from '#tables/org/stats';
import type { StreamReader } from '../../scripts/local/stream-reader.ts';
import { startInProcessStreamConsumer } from './stream-consumer.ts';

/**
 * The org counters of messages and agreements move from the table's stream, not in the request
 * (tables/org/stream-counts.ts): this file runs the stack's stream consumer on its table
 * (test/support/stream-consumer.ts). Call after `useTestTable()`. `settled()` resolves once every
 * write made before it has been counted; `orgCounts(org)` reads the org's counters then.
 */
export function useStreamCounts(): { settled(): Promise<void>; orgCounts(org: string): Promise<Counts> } {
  let reader: StreamReader | undefined;
  beforeAll(async () => {
    reader = await startInProcessStreamConsumer();
  });
  afterAll(async () => {
    await reader?.stop();
  });
  const settled = () =>
    reader ? reader.settled() : Promise.reject(new Error('the stream consumer is not running'));
  return {
    settled,
    orgCounts: async (org) => {
      await settled();
      return getOrgCounts(org);
    },
  };
}
