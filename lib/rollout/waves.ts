/**
 * Which targeted node goes in which wave (docs/rollouts.md#the-target-the-baseline-and-the-nodes):
 * a stable, random-looking order (a hash of the policy and the node, so the same node holds the same
 * place in every rollout of the policy and the dry run is what will happen), the canary matches
 * first, cut by each wave's count or percentage; the last wave takes every node left.
 */
import { createHash } from 'node:crypto';
import type { ResolvedPlan } from './plan.ts';

export interface TargetedNode {
  /** `<org>/<id>`. */
  node: string;
  /** Whether the plan's `canary` constraint matches the node's properties. */
  canary?: boolean;
}

export interface WaveSeat {
  node: string;
  wave: number;
  /** The node's place in the rollout's order (0 first). */
  order: number;
}

const rank = (policy: string, node: string): string =>
  createHash('sha256').update(`${policy}\n${node}`).digest('hex');

/** The nodes in the rollout's order: canary matches first, each group by its hash. */
export function rolloutOrder(policy: string, nodes: readonly TargetedNode[]): string[] {
  return nodes
    .map((n) => ({ node: n.node, canary: n.canary === true, key: rank(policy, n.node) }))
    .sort(
      (a, b) =>
        Number(b.canary) - Number(a.canary) || a.key.localeCompare(b.key) || a.node.localeCompare(b.node),
    )
    .map((n) => n.node);
}

/** How many of `total` nodes each wave takes (percentages of the total, rounded up). */
export function waveSizes(plan: Pick<ResolvedPlan, 'waves'>, total: number): number[] {
  let left = total;
  return plan.waves.map((wave, index) => {
    const wanted =
      index === plan.waves.length - 1
        ? left
        : wave.nodes !== undefined
          ? wave.nodes
          : Math.ceil((total * (wave.percent ?? 0)) / 100);
    const size = Math.min(wanted, left);
    left -= size;
    return size;
  });
}

/** Every targeted node's wave and place. */
export function assignWaves(
  plan: Pick<ResolvedPlan, 'waves'>,
  policy: string,
  nodes: readonly TargetedNode[],
): WaveSeat[] {
  const order = rolloutOrder(policy, nodes);
  const sizes = waveSizes(plan, order.length);
  const seats: WaveSeat[] = [];
  let wave = 0;
  let filled = 0;
  order.forEach((node, index) => {
    while (wave < sizes.length - 1 && filled >= (sizes[wave] ?? 0)) {
      wave += 1;
      filled = 0;
    }
    seats.push({ node, wave, order: index });
    filled += 1;
  });
  return seats;
}
