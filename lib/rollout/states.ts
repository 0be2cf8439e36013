/**
 * What the agbot keeps of a rollout (docs/rollouts.md#per-node-states): the rollout itself and one
 * row per targeted node. Both agbot stores keep them (lib/agbot-store/contract.ts).
 */

export const NODE_STATES = [
  'waiting',
  'deploying',
  'verifying',
  'succeeded',
  'failed',
  'offline',
  'left',
  'reverting',
  'rolledBack',
] as const;
export type NodeState = (typeof NODE_STATES)[number];

/** States of a node admitted to the target: it is offered the target while the rollout runs. */
export const ADMITTED: ReadonlySet<NodeState> = new Set(['deploying', 'verifying', 'succeeded', 'offline']);
/** States whose node holds an admission slot (maxInFlight). */
export const IN_FLIGHT: ReadonlySet<NodeState> = new Set(['deploying', 'verifying']);

/** One targeted node of a rollout (times in ms). */
export interface RolloutNode {
  /** `<org>/<name>` of the deployment policy. */
  policy: string;
  /** `<org>/<id>`. */
  node: string;
  wave: number;
  /** Its place in the rollout's order. */
  order: number;
  state: NodeState;
  /** When it entered its state. */
  since: number;
  admittedAt?: number;
  /** The containers (`name@created`, sorted) seen when it started verifying. */
  containers?: string;
  restarts?: number;
  /** Why it failed, went offline or left (`103 service terminated`, `deadline…`). */
  reason?: string;
  /** When it got its verdict (succeeded or failed). */
  verdictAt?: number;
}

export type RolloutPhase = 'running' | 'paused' | 'rollingBack' | 'rolledBack' | 'completed';

export interface Decision {
  at: number;
  action: string;
  why: string;
}

/** A rollout of one policy's target version, as the agbot keeps it (times in ms). */
export interface RolloutRecord {
  policy: string;
  target: string;
  /** The versions the targeted nodes ran when it started. */
  baseline: string[];
  phase: RolloutPhase;
  /** Who paused it: the operator (pause, abort with pause) or the gate (a trip). */
  pausedBy?: 'operator' | 'gate';
  /** The open wave (-1 before the first opens). */
  wave: number;
  startedAt: number;
  /** The control sequence when it started (actions before it were for an earlier rollout). */
  startSeq: number;
  /** The highest control sequence applied. */
  controlSeq: number;
  /** Failures with a verdict at or before this no longer count (the last resume). */
  acknowledgedAt: number;
  /** The highest wave the operator promoted (-1: none). */
  approvedThrough: number;
  lastDecision: Decision;
}

/** Counts per state, and the targeted total. */
export type StateCounts = Record<NodeState | 'targeted', number>;

export function countStates(nodes: readonly Pick<RolloutNode, 'state'>[]): StateCounts {
  const counts = Object.fromEntries([
    ['targeted', nodes.length],
    ...NODE_STATES.map((s) => [s, 0]),
  ]) as StateCounts;
  for (const n of nodes) counts[n.state] += 1;
  return counts;
}
