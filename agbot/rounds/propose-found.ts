import { mapLimit, outOfTime, type RoundContext, splitId } from './context.ts';
import { PendingUpdates } from './pending-updates.ts';
import type { SearchNotes } from './policy-status.ts';
import type { Evaluation } from './proposal-plan.ts';
import { propose } from './propose.ts';

/** What a search's proposals are for, and how the log names it. */
interface FoundFor {
  /** The policy (or pattern service) id the agreements are under. */
  policy: string;
  /** `<org>/<pattern>` for a pattern's service. */
  pattern?: string;
  /** The log's fields naming the search (`policy` or `pattern`). */
  logFields: Record<string, string>;
}

/**
 * Proposes to each node a search found that has no live agreement under the policy, at most
 * `concurrency` at once: their guards read at once, each node checked by `evaluateNode` (a skip
 * goes to `notes`), the proposals' marks written together (pending-updates.ts). Past the round's
 * deadline the nodes left are not looked at, which counts as a failure: the caller puts its search
 * back for the next round, as after a failed proposal.
 */
export async function proposeToFound(
  ctx: RoundContext,
  search: FoundFor,
  nodes: string[],
  notes: SearchNotes,
  evaluateNode: (nodeOrg: string, nodeId: string) => Promise<Evaluation>,
): Promise<{ proposed: number; failed: boolean }> {
  let proposed = 0;
  let failed = false;
  const held = await ctx.store.liveAgreementNodes(search.policy, nodes);
  const marks = new PendingUpdates(ctx.store);
  await marks.around(() =>
    mapLimit(nodes, ctx.settings.concurrency, async (nodeFull) => {
      if (outOfTime(ctx)) {
        failed = true;
        return;
      }
      if (held.has(nodeFull)) return;
      try {
        const result = await evaluateNode(...splitId(nodeFull));
        if (!result.ok) {
          ctx.log.debug('node not proposed to', {
            node: nodeFull,
            ...search.logFields,
            reason: result.reason,
          });
          notes.skipped(nodeFull, result.reason);
          return;
        }
        notes.matched(nodeFull);
        if (await propose(ctx, search.policy, result.plan, marks, search.pattern)) proposed += 1;
      } catch (error) {
        failed = true;
        ctx.log.warn('proposal failed', {
          node: nodeFull,
          ...search.logFields,
          error: (error as Error).message,
        });
      }
    }),
  );
  return { proposed, failed };
}
