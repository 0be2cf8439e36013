import { describe, expect, it } from 'vitest';
import { resolvePlan, rolloutPlan } from '#lib/rollout/plan';

const problems = (body: unknown) => {
  const parsed = rolloutPlan.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('a rollout plan', () => {
  it('accepts a canary wave, a percent wave and the rest, and fills the defaults', () => {
    const plan = {
      waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, { percent: 50, approval: 'manual' }, {}],
    };
    expect(problems(plan)).toEqual([]);
    const resolved = resolvePlan(rolloutPlan.parse(plan));
    expect(resolved.waves.map((w) => [w.name, w.soakSeconds, w.approval])).toEqual([
      ['canary', 0, 'auto'],
      ['2', 0, 'manual'],
      ['3', 0, 'auto'],
    ]);
    expect(resolved.onAbort).toBe('pause');
    expect(resolved.verify).toEqual({
      runningSeconds: 120,
      deadlineSeconds: 900,
      heartbeatSeconds: 300,
      maxRestarts: 0,
    });
    expect(resolved.gate).toEqual({ maxFailurePercent: 0, minVerdicts: 1 });
  });

  it.each([
    [{}, 'waves: Invalid input: expected array, received undefined'],
    [{ waves: [] }, 'waves: must have at least 1 wave'],
    [{ waves: [{ nodes: 1, percent: 5 }] }, 'waves.0: has both nodes and percent: give one'],
    [{ waves: [{}, {}] }, 'waves.0: needs nodes or percent (only the last wave may take the rest)'],
    [{ waves: [{ percent: 60 }, { percent: 50 }] }, 'waves: percentages add up to 110, more than 100'],
    [{ waves: [{ nodes: 0 }] }, 'waves.0.nodes: must be at least 1'],
    [{ waves: [{ nodes: 1.5 }] }, 'waves.0.nodes: must be a whole number'],
    [{ waves: [{ percent: 0 }] }, 'waves.0.percent: must be more than 0'],
    [{ waves: [{ approval: 'later' }] }, 'waves.0.approval: Invalid option: expected one of "auto"|"manual"'],
    [{ waves: [{}], onAbort: 'explode' }, 'onAbort: Invalid option: expected one of "pause"|"rollback"'],
    [{ waves: [{}], canary: 'a ==' }, 'canary: does not parse'],
    [{ waves: [{}], maxInFlight: 0 }, 'maxInFlight: must be at least 1'],
    [{ waves: [{}], gate: { maxFailurePercent: 101 } }, 'gate.maxFailurePercent: must be at most 100'],
    [
      { waves: [{}], verify: { runningSeconds: 60, deadlineSeconds: 60 } },
      'verify.deadlineSeconds: must be more than runningSeconds',
    ],
    [{ waves: [{}], extra: 1 }, ': Unrecognized key: "extra"'],
    [{ waves: [{ soak: 5 }] }, 'waves.0: Unrecognized key: "soak"'],
  ])('refuses %j naming the field', (body, message) => {
    expect(problems(body).join('\n')).toContain(message);
  });
});
