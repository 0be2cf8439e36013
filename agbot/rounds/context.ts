import type { AgbotStore } from '#lib/agbot-store/contract';
import type { Logger } from '#lib/json-logger';
import { FULL_RESCAN_S } from '#lib/protocol/timeouts';
import type { AgbotConfig } from '../config.ts';
import type { AgbotExchange } from '../exchange.ts';
import type { AgbotKeys } from '../keys.ts';
import type { FeedSummary } from './feed.ts';
import type { LiveAgreements } from './live-agreements.ts';

/** Clocks and limits of the round; tests shorten them, production takes the defaults. */
export interface RoundSettings {
  /** Overrides the protocol's reply timeout (docs/protocol.md#timeouts; else 2 × the node's max heartbeat interval). */
  protocolTimeoutS?: number;
  /** A full search (changedSince 0) of every served policy this often (upstream FullRescanS). */
  fullRescanMs: number;
  /** The mailbox is read without an `agbotmsgs` change this often, in case the feed missed one. */
  mailboxFallbackMs: number;
  /** Proposals prepared at once (each is a few Exchange reads and one RSA operation). */
  concurrency: number;
  /** Serve every org's policies and patterns (`*`), including orgs that appear later. */
  serveAll: boolean;
  /** The pattern search's `secondsStale` (upstream ActiveDeviceTimeoutS; 0 = no staleness filter). */
  activeDeviceTimeoutS: number;
  /**
   * A message about an agreement this agbot does not know stays in the mailbox this long after it
   * was sent (a reply racing its agreement's record, or another instance's), then is deleted.
   */
  unknownMessageGraceMs: number;
}

/** What the agbot keeps in memory between rounds; all of it can be rebuilt after a restart. */
export interface RoundMemory {
  /** The served policies `org/name` → node orgs, and when they were last read. */
  served?: { policies: Map<string, string[]>; readAt: number };
  /** The served patterns `org/pattern` → node orgs, and when they were last read. */
  servedPatterns?: { patterns: Map<string, string[]>; readAt: number };
  /** Orgs already served by serve-all (read from the Exchange once, then kept). */
  servedOrgs: Set<string>;
  servedOrgsLoaded: boolean;
  lastMailboxAt: number;
  /**
   * When each node health search last ran (node-health.ts), by policy org or pattern, and when the
   * next one is due (`next-due`). After a restart the first round checks again: one request per group.
   */
  nodeHealthCheckedAt: Map<string, number>;
  /**
   * Agreements a node health search found missing on their node, and since when: ended only when
   * a later search still misses them (node-health.ts), so the node's own cancel, sent right after
   * it deletes its row, is read first.
   */
  missingOnNodeSince: Map<string, number>;
  /** The served lists' read time when statuses of policies no longer served were last forgotten. */
  statusesPrunedAt?: number;
  /** This round's `FeedSummary.seenUpTo`: what a proposal made in it has seen (propose.ts). */
  feedSeenUpTo?: number;
}

/** The memory of an agbot that has not run a round yet (after a start or a restart). */
export const freshRoundMemory = (): RoundMemory => ({
  servedOrgs: new Set(),
  servedOrgsLoaded: false,
  lastMailboxAt: 0,
  nodeHealthCheckedAt: new Map(),
  missingOnNodeSince: new Map(),
});

/**
 * Staged rollouts (docs/rollouts.md), given to the round by whoever opens its context
 * (agbot/round-context.ts gives agbot/rollouts/), so both agbots run the same code.
 */
export interface RolloutHooks {
  /** Before governance: the plans and rollouts pinning reads this round. */
  prepare(ctx: RoundContext, feed: FeedSummary, served: Map<string, string[]>): Promise<void>;
  /** The versions to offer a node (`org/id`) under a policy: `offered` less a target it may not have yet. */
  pin(policy: string, node: string, offered: string[], ranked: string[]): string[];
  /** After governance, before the searches: verdicts, the gate, admissions, rollbacks, the status. */
  advance(ctx: RoundContext, live: LiveAgreements, feed: FeedSummary): Promise<void>;
}

/** What one round can use; the round itself is a function so its steps can grow on their own. */
export interface RoundContext {
  config: AgbotConfig;
  store: AgbotStore;
  exchange: AgbotExchange;
  keys: AgbotKeys;
  log: Logger;
  now: () => number;
  settings: RoundSettings;
  memory: RoundMemory;
  /**
   * When the round must stop starting work (`now()` time; the in-stack agbot's invocation ends
   * soon after): searches and proposals not begun are left, with the feed's cursor, to the next
   * round. The standalone program has none.
   */
  deadline?: number;
  /** Staged rollouts; without them every node moves to a better version at once. */
  rollouts?: RolloutHooks;
  /**
   * After a complete round: keeps the Exchange's console fleet summaries (the in-stack agbot's,
   * agbot/lambda/fleet-summaries.ts); the standalone program has none.
   */
  fleetSummaries?: { refresh(ctx: RoundContext, feed: FeedSummary): Promise<void> };
}

/** Whether the round is past its deadline (never, without one). */
export const outOfTime = (ctx: Pick<RoundContext, 'deadline' | 'now'>): boolean =>
  ctx.deadline !== undefined && ctx.now() >= ctx.deadline;

export const DEFAULT_SETTINGS: RoundSettings = {
  fullRescanMs: FULL_RESCAN_S * 1000,
  mailboxFallbackMs: 60_000,
  concurrency: 8,
  serveAll: false,
  activeDeviceTimeoutS: 180,
  unknownMessageGraceMs: 600_000,
};

/** `org/id` of a node, as messages and searches name it. */
export const nodeFullId = (a: { nodeOrg: string; nodeId: string }): string => `${a.nodeOrg}/${a.nodeId}`;

/** Splits `org/rest` at the first slash. */
export function splitId(full: string): [string, string] {
  const at = full.indexOf('/');
  return at < 0 ? ['', full] : [full.slice(0, at), full.slice(at + 1)];
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function mapLimit<T>(
  items: T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
}
