import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgbotStore, PolicyStatus } from '#lib/agbot-store/contract';
import { silentLogger } from '#lib/json-logger';
import type { AgbotConfig } from '../config.ts';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import type { RoundContext } from './context.ts';
import { pruneStatuses, SearchNotes } from './policy-status.ts';

/** The round's recording of policy statuses, on the real SQLite store; its writes are counted. */
let dir: string;
let store: SqliteAgbotStore;
let writes: number;
let now: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agbot-status-round-'));
  store = SqliteAgbotStore.open(dir);
  writes = 0;
  now = 1_000;
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function context(over: Partial<AgbotStore> = {}, warnings: string[] = []): RoundContext {
  const counted: AgbotStore = Object.assign(Object.create(store), {
    savePolicyStatus: async (status: PolicyStatus) => {
      writes++;
      await store.savePolicyStatus(status);
    },
    ...over,
  });
  return testRoundContext({
    config: { org: 'IBM', id: 'agbot' } as AgbotConfig,
    store: counted,
    log: { ...silentLogger, warn: (message: string) => warnings.push(message) },
    now: () => now,
  });
}

const search = (ctx: RoundContext, skipReason: string) => {
  const notes = new SearchNotes({ policy: 'acme/pol' }, true, ['acme/a', 'acme/b']);
  notes.matched('acme/a');
  notes.skipped('acme/b', skipReason);
  return notes.record(ctx);
};

describe('recording what a policy search saw', () => {
  it('writes the status once per search, and not at all when a search saw the same', async () => {
    const ctx = context();
    await search(ctx, 'policy mismatch');
    now = 2_000;
    await search(ctx, 'policy mismatch');
    expect(writes).toBe(1);
    now = 3_000;
    await search(ctx, 'no public key');
    expect(writes).toBe(2);
    expect(await store.policyStatus('acme/pol')).toEqual({
      policy: 'acme/pol',
      search: { at: 3_000, full: true, found: 2, matched: 1, skipped: 1 },
      skipped: [{ node: 'acme/b', reason: 'no public key', since: 3_000 }],
    });
  });

  it('logs a store failure and lets the round go on', async () => {
    const warnings: string[] = [];
    const ctx = context(
      {
        policyStatus: async () => {
          throw new Error('throttled');
        },
      },
      warnings,
    );
    await expect(search(ctx, 'x')).resolves.toBeUndefined();
    expect(warnings).toEqual(['policy status not recorded']);
  });

  it('forgets the statuses of policies and patterns no longer served, once per reading of the served lists', async () => {
    const ctx = context();
    const status = (policy: string, pattern?: string): PolicyStatus => ({
      policy,
      ...(pattern ? { pattern } : {}),
      search: { at: 0, full: true, found: 0, matched: 0, skipped: 0 },
      skipped: [],
    });
    for (const s of [
      status('acme/kept'),
      status('acme/gone'),
      status('acme/p_svc', 'acme/p'),
      status('acme/q_svc', 'acme/q'),
    ])
      await store.savePolicyStatus(s);
    const policies = new Map([['acme/kept', ['acme']]]);
    const patterns = new Map([['acme/p', ['acme']]]);
    ctx.memory.served = { policies, readAt: 500 };
    await pruneStatuses(ctx, policies, patterns);
    expect((await store.policyStatuses()).map((s) => s.policy)).toEqual(['acme/kept', 'acme/p_svc']);
    // Not read again: no listing at all.
    let listed = 0;
    ctx.store.policyStatuses = async () => {
      listed++;
      return [];
    };
    await pruneStatuses(ctx, new Map(), new Map());
    expect(listed).toBe(0);
  });
});
