import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { exchangePublicKey, generateMessagingKeys } from '#lib/protocol/keys';
import { messagingKeys } from '../keys.ts';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import { sampleAgreement } from '../test-support/store-contract.ts';
import type { RoundContext } from './context.ts';
import { readFeed } from './feed.ts';
import { PendingUpdates } from './pending-updates.ts';
import { propose } from './propose.ts';

/**
 * Two rounds that overlap (two invocations of the in-stack agbot, or two processes on one file)
 * on one store: the store's conditions decide, and the round acts on the outcome. The Exchange
 * client is a stub that records what the round sends (the store is the real SQLite one).
 */
let dir: string;
let stores: AgbotStore[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agbot-overlap-'));
  stores = [];
});
afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function roundOn(exchange: Record<string, unknown>): Promise<RoundContext> {
  const store = SqliteAgbotStore.open(dir);
  stores.push(store);
  return testRoundContext({
    store,
    exchange: exchange as unknown as RoundContext['exchange'],
    keys: await messagingKeys(store),
    now: () => 1_000,
  });
}

describe('two overlapping rounds', () => {
  it('read the same changes; one commits the cursor, the other is told it moved', async () => {
    const exchange = {
      changes: async () => ({
        changes: [{ orgId: 'acme', resource: 'policy', id: 'pol', operation: 'created' }],
        mostRecentChangeId: 7,
      }),
    };
    const [one, two] = [await roundOn(exchange), await roundOn(exchange)];
    const [feedOne, feedTwo] = await Promise.all([readFeed(one), readFeed(two)]);
    expect(feedOne.policies).toEqual(new Set(['acme/pol']));
    expect(await feedOne.commit()).toBe('advanced');
    expect(await feedTwo.commit()).toBe('moved');
    expect(await one.store.feedCursor()).toBe(7);
  });

  it('propose to the same node for the same policy: only one proposal is stored and sent', async () => {
    const sent: string[] = [];
    const exchange = {
      putAgreement: async (id: string) => {
        sent.push(`row ${id}`);
      },
      sendToNode: async (org: string, id: string) => {
        sent.push(`message to ${org}/${id}`);
      },
    };
    const [one, two] = [await roundOn(exchange), await roundOn(exchange)];
    const node = {
      org: 'acme',
      id: 'n1',
      publicKey: exchangePublicKey(generateMessagingKeys().publicKey),
    };
    const plan = {
      node,
      service: sampleAgreement.service,
      terms: {} as never,
      producerPolicy: {} as never,
      secrets: [],
    };
    const marks = (ctx: RoundContext) => new PendingUpdates(ctx.store);
    const results = await Promise.all([
      propose(one, 'acme/pol', plan, marks(one)),
      propose(two, 'acme/pol', plan, marks(two)),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await one.store.listAgreements(false)).toHaveLength(1);
    expect(sent.filter((s) => s.startsWith('message to acme/n1'))).toHaveLength(1);
  });
});
