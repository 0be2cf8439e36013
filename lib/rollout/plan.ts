/**
 * A deployment policy's rollout plan (docs/rollouts.md#the-plan): the waves, how a node proves the
 * new version, the gate, what an abort does. Validated field by field, so a bad plan is a 400
 * naming the field; `resolvePlan` fills the defaults the agbot runs with.
 */
import * as z from 'zod';
import { ConstraintError, MAX_CONSTRAINT_LENGTH, parseConstraint } from '#lib/policy/constraints';

const DAY_S = 86_400;
const count = (min: number, max: number) =>
  z
    .number()
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
const seconds = (max: number) => count(0, max);

export const MAX_WAVES = 20;

const wave = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
  nodes: count(1, 1_000_000).optional(),
  percent: z.number().gt(0, 'must be more than 0').max(100, 'must be at most 100').optional(),
  soakSeconds: seconds(7 * DAY_S).optional(),
  approval: z.enum(['auto', 'manual']).optional(),
  maxFailures: count(0, 1_000_000).optional(),
});

const constraint = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_CONSTRAINT_LENGTH, `must be at most ${MAX_CONSTRAINT_LENGTH} characters`)
  .superRefine((source, ctx) => {
    try {
      parseConstraint(source);
    } catch (error) {
      if (!(error instanceof ConstraintError)) throw error;
      ctx.addIssue({ code: 'custom', message: `does not parse: ${error.message}` });
    }
  });

export const rolloutPlan = z
  .strictObject({
    waves: z
      .array(wave)
      .min(1, 'must have at least 1 wave')
      .max(MAX_WAVES, `must have at most ${MAX_WAVES} waves`),
    canary: constraint.optional(),
    maxInFlight: count(1, 1_000_000).optional(),
    verify: z
      .strictObject({
        runningSeconds: seconds(DAY_S).optional(),
        deadlineSeconds: count(1, 7 * DAY_S).optional(),
        heartbeatSeconds: count(1, DAY_S).optional(),
        maxRestarts: count(0, 1000).optional(),
      })
      .optional(),
    gate: z
      .strictObject({
        maxFailurePercent: z.number().min(0, 'must be at least 0').max(100, 'must be at most 100').optional(),
        minVerdicts: count(1, 1_000_000).optional(),
      })
      .optional(),
    onAbort: z.enum(['pause', 'rollback']).optional(),
  })
  .superRefine((plan, ctx) => {
    let percent = 0;
    plan.waves.forEach((w, index) => {
      const last = index === plan.waves.length - 1;
      if (w.nodes !== undefined && w.percent !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['waves', index],
          message: 'has both nodes and percent: give one',
        });
      else if (!last && w.nodes === undefined && w.percent === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['waves', index],
          message: 'needs nodes or percent (only the last wave may take the rest)',
        });
      percent += w.percent ?? 0;
    });
    if (percent > 100)
      ctx.addIssue({
        code: 'custom',
        path: ['waves'],
        message: `percentages add up to ${percent}, more than 100`,
      });
    if (plan.verify?.runningSeconds !== undefined && plan.verify.deadlineSeconds !== undefined)
      if (plan.verify.deadlineSeconds <= plan.verify.runningSeconds)
        ctx.addIssue({
          code: 'custom',
          path: ['verify', 'deadlineSeconds'],
          message: 'must be more than runningSeconds',
        });
  });

export type RolloutPlan = z.infer<typeof rolloutPlan>;

export interface ResolvedWave {
  index: number;
  name: string;
  nodes?: number;
  percent?: number;
  soakSeconds: number;
  approval: 'auto' | 'manual';
  maxFailures?: number;
}

/** A plan with every default filled (docs/rollouts.md#the-plan). */
export interface ResolvedPlan {
  waves: ResolvedWave[];
  canary?: string;
  maxInFlight: number;
  verify: { runningSeconds: number; deadlineSeconds: number; heartbeatSeconds: number; maxRestarts: number };
  gate: { maxFailurePercent: number; minVerdicts: number };
  onAbort: 'pause' | 'rollback';
}

export const DEFAULT_VERIFY = {
  runningSeconds: 120,
  deadlineSeconds: 900,
  heartbeatSeconds: 300,
  maxRestarts: 0,
};

export function resolvePlan(plan: RolloutPlan): ResolvedPlan {
  return {
    waves: plan.waves.map((w, index) => ({
      index,
      name: w.name ?? String(index + 1),
      ...(w.nodes === undefined ? {} : { nodes: w.nodes }),
      ...(w.percent === undefined ? {} : { percent: w.percent }),
      soakSeconds: w.soakSeconds ?? 0,
      approval: w.approval ?? 'auto',
      ...(w.maxFailures === undefined ? {} : { maxFailures: w.maxFailures }),
    })),
    ...(plan.canary === undefined ? {} : { canary: plan.canary }),
    maxInFlight: plan.maxInFlight ?? Number.MAX_SAFE_INTEGER,
    verify: { ...DEFAULT_VERIFY, ...plan.verify },
    gate: { maxFailurePercent: plan.gate?.maxFailurePercent ?? 0, minVerdicts: plan.gate?.minVerdicts ?? 1 },
    onAbort: plan.onAbort ?? 'pause',
  };
}
