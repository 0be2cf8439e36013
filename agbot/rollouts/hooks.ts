/**
 * Staged rollouts in the agbot's round (docs/rollouts.md), the same code for the standalone agbot
 * and the one in the stack: `prepare` reads what pinning needs before governance, `pin` keeps a
 * target from nodes not admitted to it, `advance` moves every rollout one step after governance.
 */
import { versionsByPriority } from '#lib/protocol/catalog-records';
import { pinVersions } from '#lib/rollout/pin';
import { type ResolvedPlan, resolvePlan } from '#lib/rollout/plan';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';
import type { RolloutHooks, RoundContext } from '../rounds/context.ts';
import type { FeedSummary } from '../rounds/feed.ts';
import type { LiveAgreements } from '../rounds/live-agreements.ts';
import { deploymentPolicy, oneOf } from '../rounds/wire.ts';
import { advancePolicy } from './advance.ts';
import { type PlanRead, readPlan } from './exchange.ts';

/** A policy with a plan, as this round sees it. */
export interface PolicyRollout {
  policy: string;
  read: PlanRead;
  plan: ResolvedPlan;
  record?: RolloutRecord | undefined;
  nodes: Map<string, RolloutNode>;
  /** Whether `nodes` holds the stored rows (read every round only while the rollout is active). */
  nodesRead: boolean;
}

/** What the hooks keep between rounds (all of it can be read again after a restart). */
export interface RolloutMemory {
  /** Plans of served policies (null: none), and when they were all read (the first round). */
  plans: Map<string, PlanRead | null>;
  plansReadAt: number;
  /** This round's rollouts of policies with a plan. */
  views: Map<string, PolicyRollout>;
  /** The status last reported per policy (JSON), so an unchanged one is not written again. */
  reported: Map<string, string>;
  /** The live agreements under each policy last looked at (a changed set recomputes the dry run). */
  targetedSeen: Map<string, string>;
}

const ACTIVE = new Set(['running', 'paused', 'rollingBack']);
export const isActive = (record: RolloutRecord | undefined): record is RolloutRecord =>
  record !== undefined && ACTIVE.has(record.phase);

export function createRolloutHooks(): RolloutHooks {
  const memory: RolloutMemory = {
    plans: new Map(),
    plansReadAt: Number.NEGATIVE_INFINITY,
    views: new Map(),
    reported: new Map(),
    targetedSeen: new Map(),
  };
  return {
    async prepare(ctx: RoundContext, feed: FeedSummary, served: Map<string, string[]>) {
      // Every plan once, at the first round; then only a policy newly served or one whose plan or
      // control the feed shows changed (every plan write has its `rollout` change row, in the same
      // transaction, and the round reads every row from its cursor): a fleet without plans pays
      // one read per served policy per start, nothing per hour.
      const first = memory.plansReadAt === Number.NEGATIVE_INFINITY;
      for (const policy of served.keys()) {
        if (!first && memory.plans.has(policy) && !feed.rollouts.has(policy)) continue;
        memory.plans.set(policy, (await readPlan(ctx.exchange, policy)) ?? null);
      }
      if (first) memory.plansReadAt = ctx.now();
      for (const policy of memory.plans.keys()) if (!served.has(policy)) memory.plans.delete(policy);
      memory.views.clear();
      for (const [policy, read] of memory.plans) {
        if (!read) continue;
        const record = await ctx.store.rollout(policy);
        // Pinning reads node states only while a rollout is active; a finished one's rows are
        // read when its status is due again (advance).
        const rows = isActive(record) ? await ctx.store.rolloutNodes(policy) : [];
        memory.views.set(policy, {
          policy,
          read,
          plan: resolvePlan(read.plan),
          record,
          nodes: new Map(rows.map((n) => [n.node, n])),
          nodesRead: isActive(record),
        });
      }
    },
    pin(policy, node, offered, ranked) {
      const view = memory.views.get(policy);
      return pinVersions(offered, ranked, {
        planned: view !== undefined,
        rollout: view?.record,
        nodeState: view?.nodes.get(node)?.state,
      });
    },
    async advance(ctx: RoundContext, live: LiveAgreements, feed: FeedSummary) {
      for (const view of memory.views.values()) {
        const mine = live.list().filter((a) => a.policy === view.policy && !a.pattern);
        const targeted = mine
          .map((a) => `${a.nodeOrg}/${a.nodeId}@${a.service.version}`)
          .sort()
          .join(',');
        const looked = memory.targetedSeen.get(view.policy);
        const due =
          isActive(view.record) ||
          feed.policies.has(view.policy) ||
          feed.rollouts.has(view.policy) ||
          looked !== targeted;
        if (!due) continue;
        const [org, name] = [
          view.policy.slice(0, view.policy.indexOf('/')),
          view.policy.slice(view.policy.indexOf('/') + 1),
        ];
        const policy = oneOf(
          await ctx.exchange.deploymentPolicy(org, name),
          'businessPolicy',
          view.policy,
          deploymentPolicy,
        );
        if (!policy) continue;
        if (!view.nodesRead && view.record) {
          for (const row of await ctx.store.rolloutNodes(view.policy)) view.nodes.set(row.node, row);
          view.nodesRead = true;
        }
        await advancePolicy(ctx, memory, view, versionsByPriority(policy.service), live);
        memory.targetedSeen.set(view.policy, targeted);
      }
    },
  };
}
