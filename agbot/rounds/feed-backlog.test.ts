import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import { DEFAULT_SETTINGS, freshRoundMemory, type RoundContext } from './context.ts';
import { readFeed } from './feed.ts';
import { mailboxDue } from './mailbox.ts';

/**
 * A feed with more changes than a round reads (10 pages of 1,000): the round must still read its
 * mailbox, whose change may be behind the ones it read. At 10,000 nodes the registrations' changes
 * kept the replies to the first proposals unread for three rounds, until they timed out
 * (docs/benchmarks.md). The Exchange client is a stub serving pages of node changes; the store is
 * the real SQLite one.
 */
const NOW = 1_000_000;
let dir: string;
let store: SqliteAgbotStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agbot-feed-backlog-'));
  store = SqliteAgbotStore.open(dir);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A feed of node changes up to id `total`, served `maxRecords` at a time from `changeId`. */
function feedOf(total: number, extra: { resource: string; id: string }[] = []) {
  const asked: number[] = [];
  const changes = async ({ changeId, maxRecords }: { changeId: number; maxRecords: number }) => {
    asked.push(changeId);
    const ids = Array.from(
      { length: Math.max(0, Math.min(maxRecords, total - changeId + 1)) },
      (_, i) => changeId + i,
    );
    const rows = ids.map((id) => ({
      orgId: 'acme',
      resource: 'node',
      id: `n${id}`,
      operation: 'modified',
      resourceChanges: [{ changeId: id, lastUpdated: '2026-12-01T00:00:00.000Z' }],
    }));
    const last = ids.at(-1);
    const more = last !== undefined && last < total;
    return {
      changes: more ? rows : [...rows, ...extra.map((e) => ({ orgId: 'acme', operation: 'created', ...e }))],
      mostRecentChangeId: last ?? total,
      hitMaxRecords: more,
    };
  };
  let newestAsked = 0;
  // The feed's head lies past what a round reads when it has a backlog.
  const maxChangeId = async () => {
    newestAsked += 1;
    return { maxChangeId: total };
  };
  return { exchange: { changes, maxChangeId }, asked, newestAsked: () => newestAsked };
}

function contextOn(exchange: Record<string, unknown>, lastMailboxAt = NOW): RoundContext {
  return testRoundContext({
    store,
    exchange: exchange as unknown as RoundContext['exchange'],
    now: () => NOW,
    memory: { ...freshRoundMemory(), lastMailboxAt },
  });
}

describe("a round's feed and its mailbox", () => {
  it('reads 10 pages of a longer feed, says it has a backlog, and reads the mailbox although no message change was seen', async () => {
    const { exchange, asked } = feedOf(25_000);
    const ctx = contextOn(exchange);
    const feed = await readFeed(ctx);
    expect(asked).toHaveLength(10);
    expect(feed.mailbox).toBe(false);
    expect(feed.backlog).toBe(true);
    expect(mailboxDue(ctx, feed)).toBe(true);
    // The next round reads on from where this one stopped, and the one after that drains it.
    await feed.commit();
    const next = await readFeed(ctx);
    expect(asked[10]).toBe(10_000);
    expect(next.backlog).toBe(true);
    await next.commit();
    const last = await readFeed(ctx);
    expect(last.backlog).toBe(false);
    expect(mailboxDue(ctx, last)).toBe(false);
  });

  it('without a backlog reads the mailbox only for a message change (or when the fallback is due)', async () => {
    const quiet = feedOf(1_500);
    const ctx = contextOn(quiet.exchange);
    const feed = await readFeed(ctx);
    expect(quiet.asked).toEqual([0, 1_000]);
    expect(feed.backlog).toBe(false);
    expect(mailboxDue(ctx, feed)).toBe(false);
    expect(mailboxDue(contextOn(quiet.exchange, NOW - DEFAULT_SETTINGS.mailboxFallbackMs), feed)).toBe(true);

    const withMessage = feedOf(1_500, [{ resource: 'agbotmsgs', id: 'bot' }]);
    const told = await readFeed(contextOn(withMessage.exchange));
    expect(told.mailbox).toBe(true);
    expect(mailboxDue(ctx, told)).toBe(true);
  });

  it('says up to which change id what the round reads is known: the head (one GET) past a backlog, else what it read', async () => {
    const long = feedOf(25_000);
    const behind = await readFeed(contextOn(long.exchange));
    expect(behind.seenUpTo).toBe(25_000);
    expect(long.newestAsked()).toBe(1);
    // The node changes it read, each with its newest id: governance compares them with a proposal's.
    expect(behind.nodeChangeIds.get('acme/n7')).toBe(7);
    expect(behind.nodeChangeIds.size).toBe(10_000);

    const short = feedOf(1_500);
    const caughtUp = await readFeed(contextOn(short.exchange));
    expect(caughtUp.seenUpTo).toBe(1_500);
    expect(short.newestAsked()).toBe(0);
  });
});
