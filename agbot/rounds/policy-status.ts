/**
 * Recording what a policy's search saw (docs/agbot.md "Status"): the search round notes each node
 * it looked at, then `record` folds the outcome into the stored status, one read and at most one
 * write per searched policy (none when only the time would change), never a write per node.
 */
import { nextStatus, type SearchOutcome } from '#lib/agbot-store/policy-status';
import type { RoundContext } from './context.ts';

export class SearchNotes {
  private readonly outcome: SearchOutcome;

  constructor(
    private readonly target: { policy: string; pattern?: string | undefined },
    full: boolean,
    found: string[],
  ) {
    this.outcome = { full, found, matched: [], skipped: new Map() };
  }

  matched(node: string): void {
    this.outcome.matched.push(node);
  }

  skipped(node: string, reason: string): void {
    this.outcome.skipped.set(node, reason);
  }

  /** Stores the status if it changed; a failure to store is logged, never fails the round. */
  async record(ctx: RoundContext): Promise<void> {
    try {
      const previous = await ctx.store.policyStatus(this.target.policy);
      const next = nextStatus(previous, this.target, this.outcome, ctx.now());
      if (next) await ctx.store.savePolicyStatus(next);
    } catch (error) {
      ctx.log.warn('policy status not recorded', {
        policy: this.target.policy,
        error: (error as Error).message,
      });
    }
  }
}

/**
 * Forgets the statuses of policies and patterns no longer served, when the served lists were read
 * again (every full rescan, or a served-row or catalog change): one listing then, none otherwise.
 */
export async function pruneStatuses(
  ctx: RoundContext,
  policies: Map<string, string[]>,
  patterns: Map<string, string[]>,
): Promise<void> {
  const readAt = Math.max(ctx.memory.served?.readAt ?? 0, ctx.memory.servedPatterns?.readAt ?? 0);
  if (readAt <= (ctx.memory.statusesPrunedAt ?? 0)) return;
  ctx.memory.statusesPrunedAt = readAt;
  for (const status of await ctx.store.policyStatuses()) {
    const served = status.pattern ? patterns.has(status.pattern) : policies.has(status.policy);
    if (!served) await ctx.store.dropPolicyStatus(status.policy);
  }
}
