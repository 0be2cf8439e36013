import { describe, expect, it } from 'vitest';
import { decideGate, type GateInput } from '#lib/rollout/gate';
import { resolvePlan } from '#lib/rollout/plan';
import type { NodeState } from '#lib/rollout/states';

const plan = resolvePlan({
  waves: [
    { name: 'canary', nodes: 1, maxFailures: 0, soakSeconds: 60 },
    { percent: 50, approval: 'manual' },
    {},
  ],
  maxInFlight: 2,
  gate: { maxFailurePercent: 20, minVerdicts: 5 },
});
const node = (wave: number, state: NodeState, verdictAt?: number) => ({
  wave,
  state,
  since: 1000,
  ...(verdictAt === undefined ? {} : { verdictAt }),
});
const gate = (over: Partial<GateInput>) =>
  decideGate({ plan, wave: 0, approvedThrough: -1, acknowledgedAt: 0, now: 100_000, nodes: [], ...over });

describe('the gate', () => {
  it('opens the first wave, then admits its waiting nodes within the cap', () => {
    const nodes = [node(0, 'waiting'), node(1, 'waiting'), node(1, 'waiting'), node(2, 'waiting')];
    expect(gate({ wave: -1, nodes }).action).toBe('advance');
    expect(gate({ nodes })).toMatchObject({ action: 'admit', count: 1 });
  });

  it('waits while the wave is being verified, then soaks after its last verdict', () => {
    expect(gate({ nodes: [node(0, 'verifying')] }).action).toBe('wait');
    expect(gate({ nodes: [node(0, 'succeeded', 90_000)] })).toMatchObject({ action: 'soak', until: 150_000 });
    expect(gate({ nodes: [node(0, 'succeeded', 30_000)] })).toMatchObject({
      action: 'await-approval',
      wave: 1,
    });
  });

  it('opens a manual wave after promote, which also skips the soak', () => {
    expect(gate({ approvedThrough: 1, nodes: [node(0, 'succeeded', 90_000)] })).toMatchObject({
      action: 'advance',
      wave: 1,
    });
  });

  it('caps the nodes in flight across waves', () => {
    const nodes = [node(0, 'deploying'), node(1, 'verifying'), node(1, 'waiting')];
    expect(gate({ wave: 1, nodes })).toMatchObject({ action: 'wait' });
    expect(gate({ wave: 1, nodes: nodes.slice(1) })).toMatchObject({ action: 'admit', count: 1 });
  });

  it('trips on the canary wave first failure (maxFailures 0)', () => {
    expect(gate({ nodes: [node(0, 'failed', 5000)] }).action).toBe('trip');
  });

  it('judges the failure rate only from minVerdicts on, and only failures after the last resume', () => {
    const four = [
      node(1, 'failed', 5000),
      node(1, 'succeeded', 5000),
      node(1, 'succeeded', 5000),
      node(1, 'succeeded', 5000),
    ];
    expect(gate({ wave: 1, nodes: four }).action).not.toBe('trip');
    const five = [...four, node(1, 'succeeded', 6000)];
    expect(gate({ wave: 1, nodes: five }).action).not.toBe('trip'); // 20% is not over 20%
    const six = [...five, node(1, 'failed', 7000)];
    expect(gate({ wave: 1, nodes: six })).toMatchObject({
      action: 'trip',
      why: expect.stringContaining('33.33%'),
    });
    expect(gate({ wave: 1, nodes: six, acknowledgedAt: 7000 }).action).not.toBe('trip');
  });

  it('does not count offline or left nodes as verdicts', () => {
    const nodes = [node(0, 'offline'), node(0, 'left')];
    expect(gate({ nodes, now: 50_000 })).toMatchObject({ action: 'soak' });
    expect(gate({ nodes, now: 10_000_000 })).toMatchObject({ action: 'await-approval' });
  });

  it('completes after the last wave', () => {
    expect(gate({ wave: 2, nodes: [node(2, 'succeeded', 1)] }).action).toBe('complete');
  });
});
