/**
 * The gate of a running rollout (docs/rollouts.md#the-gate): from the plan, the node states and
 * the operator's approvals, the one thing to do now. A pure function: the agbot records the
 * decision before it acts on it, so a crash in between repeats the decision, never a different one.
 */
import type { ResolvedPlan } from './plan.ts';
import { IN_FLIGHT, type RolloutNode } from './states.ts';

export type GateDecision =
  | { action: 'trip'; why: string }
  | { action: 'admit'; count: number; why: string }
  | { action: 'wait'; why: string }
  | { action: 'soak'; until: number; why: string }
  | { action: 'await-approval'; wave: number; why: string }
  | { action: 'advance'; wave: number; why: string }
  | { action: 'complete'; why: string };

export interface GateInput {
  plan: Pick<ResolvedPlan, 'waves' | 'maxInFlight' | 'gate'>;
  /** The open wave (-1: none yet). */
  wave: number;
  approvedThrough: number;
  /** Failures with a verdict at or before this do not count (ms). */
  acknowledgedAt: number;
  now: number;
  nodes: readonly Pick<RolloutNode, 'wave' | 'state' | 'since' | 'verdictAt'>[];
}

export interface FailureRate {
  /** Failures over verdicts, in percent (0 without verdicts). */
  measured: number;
  threshold: number;
  verdicts: number;
  failures: number;
  minVerdicts: number;
}

const counted = (n: GateInput['nodes'][number], acknowledgedAt: number) =>
  n.verdictAt !== undefined && n.verdictAt > acknowledgedAt;

/** The failure rate the gate judges: verdicts since the last resume. */
export function failureRate(input: Pick<GateInput, 'plan' | 'nodes' | 'acknowledgedAt'>): FailureRate {
  let verdicts = 0;
  let failures = 0;
  for (const n of input.nodes) {
    if (!counted(n, input.acknowledgedAt)) continue;
    if (n.state === 'succeeded') verdicts += 1;
    if (n.state === 'failed') {
      verdicts += 1;
      failures += 1;
    }
  }
  const measured = verdicts === 0 ? 0 : Math.round((failures * 10_000) / verdicts) / 100;
  return {
    measured,
    threshold: input.plan.gate.maxFailurePercent,
    verdicts,
    failures,
    minVerdicts: input.plan.gate.minVerdicts,
  };
}

function tripped(input: GateInput): string | undefined {
  for (const wave of input.plan.waves.slice(0, input.wave + 1)) {
    if (wave.maxFailures === undefined) continue;
    const failed = input.nodes.filter(
      (n) => n.wave === wave.index && n.state === 'failed' && counted(n, input.acknowledgedAt),
    ).length;
    if (failed > wave.maxFailures)
      return `wave ${wave.name}: ${failed} failure(s), more than its maxFailures ${wave.maxFailures}`;
  }
  const rate = failureRate(input);
  if (rate.verdicts >= rate.minVerdicts && rate.failures > 0 && rate.measured > rate.threshold)
    return `failure rate ${rate.measured}% of ${rate.verdicts} verdict(s) is over ${rate.threshold}%`;
  return undefined;
}

export function decideGate(input: GateInput): GateDecision {
  const trip = tripped(input);
  if (trip) return { action: 'trip', why: trip };
  const { plan, wave } = input;
  const inFlight = input.nodes.filter((n) => IN_FLIGHT.has(n.state)).length;
  const mine = input.nodes.filter((n) => n.wave === wave);
  const name = plan.waves[wave]?.name;
  const waiting = mine.filter((n) => n.state === 'waiting').length;
  if (wave >= 0 && waiting > 0) {
    const room = plan.maxInFlight - inFlight;
    if (room <= 0) return { action: 'wait', why: `wave ${name}: ${inFlight} node(s) in flight, the cap` };
    const count = Math.min(room, waiting);
    return { action: 'admit', count, why: `wave ${name}: admit ${count} of ${waiting} waiting` };
  }
  const busy = mine.filter((n) => IN_FLIGHT.has(n.state)).length;
  if (wave >= 0 && busy > 0) return { action: 'wait', why: `wave ${name}: ${busy} node(s) being verified` };
  const next = wave + 1;
  if (next >= plan.waves.length) return { action: 'complete', why: `every wave is done` };
  const approved = input.approvedThrough >= next;
  if (wave >= 0 && !approved) {
    const last = Math.max(0, ...mine.map((n) => n.verdictAt ?? n.since));
    const until = last + (plan.waves[wave]?.soakSeconds ?? 0) * 1000;
    if (until > input.now)
      return { action: 'soak', until, why: `wave ${name} soaks until ${new Date(until).toISOString()}` };
  }
  const nextWave = plan.waves[next];
  if (nextWave?.approval === 'manual' && !approved)
    return { action: 'await-approval', wave: next, why: `wave ${nextWave.name} waits for promote` };
  return {
    action: 'advance',
    wave: next,
    why: wave < 0 ? `wave ${nextWave?.name} opens` : `wave ${name} is done: wave ${nextWave?.name} opens`,
  };
}
