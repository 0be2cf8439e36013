import { describe, expect, it } from 'vitest';
import { applyControl, type RolloutControl, retryBody } from '#lib/rollout/control';
import { pinVersions } from '#lib/rollout/pin';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';

const record: RolloutRecord = {
  policy: 'org/web',
  target: '2.0.0',
  baseline: ['1.0.0'],
  phase: 'running',
  wave: 0,
  startedAt: 1,
  startSeq: 3,
  controlSeq: 3,
  acknowledgedAt: 0,
  approvedThrough: -1,
  lastDecision: { at: 1, action: 'advance', why: '' },
};
const failed: RolloutNode = {
  policy: 'org/web',
  node: 'org/a',
  wave: 0,
  order: 0,
  state: 'failed',
  since: 5,
  verdictAt: 5,
  reason: 'x',
};
const control = (over: Partial<RolloutControl>): RolloutControl => ({ seq: 9, retries: [], ...over });

describe('operator actions', () => {
  it('ignore what came before the rollout, except a pause still in force', () => {
    expect(
      applyControl(record, control({ abort: { seq: 2, action: 'rollback' } }), [], 'pause', 10).record.phase,
    ).toBe('running');
    const paused = applyControl(record, control({ pause: { seq: 2 } }), [], 'pause', 10).record;
    expect(paused).toMatchObject({ phase: 'paused', pausedBy: 'operator', controlSeq: 9 });
  });

  it('resume a paused rollout and acknowledge the failures so far', () => {
    const tripped = { ...record, phase: 'paused' as const, pausedBy: 'gate' as const };
    const out = applyControl(tripped, control({ resume: { seq: 9 } }), [], 'pause', 42).record;
    expect(out).toMatchObject({ phase: 'running', acknowledgedAt: 42 });
  });

  it('abort with the plan default or the given action, once', () => {
    expect(applyControl(record, control({ abort: { seq: 9 } }), [], 'rollback', 1).record.phase).toBe(
      'rollingBack',
    );
    const once = { ...record, controlSeq: 9 };
    expect(applyControl(once, control({ abort: { seq: 9 } }), [], 'rollback', 1).record.phase).toBe(
      'running',
    );
  });

  it('promote the next wave by default', () => {
    expect(
      applyControl(record, control({ promote: { seq: 9 } }), [], 'pause', 1).record.approvedThrough,
    ).toBe(1);
    expect(
      applyControl(record, control({ promote: { seq: 9, wave: 2 } }), [], 'pause', 1).record.approvedThrough,
    ).toBe(2);
  });

  it('retry failed nodes: back to waiting without their verdict', () => {
    const out = applyControl(record, control({ retries: [{ seq: 9, failed: true }] }), [failed], 'pause', 7);
    expect(out.nodes).toEqual([
      { policy: 'org/web', node: 'org/a', wave: 0, order: 0, state: 'waiting', since: 7 },
    ]);
  });

  it('validate a retry body: failed or nodes, not both', () => {
    expect(retryBody.safeParse({ failed: true }).success).toBe(true);
    expect(retryBody.safeParse({ nodes: ['org/a'] }).success).toBe(true);
    expect(retryBody.safeParse({}).success).toBe(false);
    expect(retryBody.safeParse({ failed: true, nodes: ['org/a'] }).success).toBe(false);
    expect(retryBody.safeParse({ nodes: ['a'] }).error?.issues[0]?.message).toBe('must be <org>/<node>');
  });
});

describe('pinning', () => {
  const ranked = ['2.0.0', '1.0.0'];
  it('offers everything without a plan, or once the rollout of the top version completed', () => {
    expect(pinVersions(ranked, ranked, { planned: false })).toEqual(ranked);
    expect(
      pinVersions(ranked, ranked, { planned: true, rollout: { target: '2.0.0', phase: 'completed' } }),
    ).toEqual(ranked);
  });
  it('keeps the top version from nodes not admitted, and from every node before its rollout or after a rollback', () => {
    expect(pinVersions(ranked, ranked, { planned: true })).toEqual(['1.0.0']);
    expect(
      pinVersions(ranked, ranked, { planned: true, rollout: { target: '1.0.0', phase: 'completed' } }),
    ).toEqual(['1.0.0']);
    const running = { target: '2.0.0', phase: 'running' as const };
    expect(pinVersions(ranked, ranked, { planned: true, rollout: running, nodeState: 'waiting' })).toEqual([
      '1.0.0',
    ]);
    expect(pinVersions(ranked, ranked, { planned: true, rollout: running, nodeState: 'failed' })).toEqual([
      '1.0.0',
    ]);
    expect(pinVersions(ranked, ranked, { planned: true, rollout: running, nodeState: 'deploying' })).toEqual(
      ranked,
    );
    const back = { target: '2.0.0', phase: 'rollingBack' as const };
    expect(pinVersions(ranked, ranked, { planned: true, rollout: back, nodeState: 'succeeded' })).toEqual([
      '1.0.0',
    ]);
  });
  it('does not pin a policy with one version', () => {
    expect(pinVersions(['1.0.0'], ['1.0.0'], { planned: true })).toEqual(['1.0.0']);
  });
});
