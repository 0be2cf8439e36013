/**
 * Pinning (docs/rollouts.md#the-target-the-baseline-and-the-nodes): while a policy with a plan has
 * a target not yet rolled out to a node, the node is not offered the target; every proposal and
 * the upgrade check of governance go through this (agbot/rounds/candidate.ts, versionsToOffer).
 */
import { ADMITTED, type NodeState, type RolloutPhase } from './states.ts';

export interface PinView {
  /** The policy has a rollout plan. */
  planned: boolean;
  /** The agbot's rollout of the policy, if any. */
  rollout?: { target: string; phase: RolloutPhase } | undefined;
  /** The node's state in it, if the node is targeted. */
  nodeState?: NodeState | undefined;
}

/**
 * The versions to offer the node: `offered` (best first, already less what version fallback
 * abandoned) less the policy's top version unless the node may have it. `ranked` is every
 * version of the policy by priority.
 */
export function pinVersions(offered: readonly string[], ranked: readonly string[], view: PinView): string[] {
  const top = ranked[0];
  if (!view.planned || top === undefined || ranked.length < 2) return [...offered];
  const rollout = view.rollout?.target === top ? view.rollout : undefined;
  if (rollout?.phase === 'completed') return [...offered];
  const live = rollout?.phase === 'running' || rollout?.phase === 'paused';
  if (live && view.nodeState !== undefined && ADMITTED.has(view.nodeState)) return [...offered];
  return offered.filter((v) => v !== top);
}
