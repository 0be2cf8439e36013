/**
 * The rollout status an agbot reports to the Exchange (`PUT …/rollout/status`,
 * docs/rollouts.md#operators) and operators read: the state, counts per node state, failures by
 * reason, the measured failure rate beside the threshold, the last decision, and the dry run
 * (which nodes in which wave). `summarize` builds it from what the agbot keeps.
 */
import * as z from 'zod';
import { type FailureRate, failureRate } from './gate.ts';
import type { ResolvedPlan } from './plan.ts';
import { countStates, NODE_STATES, type RolloutNode, type RolloutRecord } from './states.ts';
import type { WaveSeat } from './waves.ts';

/** Node names listed per wave in the dry run (every wave's count is given). */
export const PREVIEW_NODES = 100;

const int = z.number().int().min(0);
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const ROLLOUT_STATES = [
  'idle',
  'running',
  'paused',
  'awaiting-approval',
  'rolling-back',
  'rolled-back',
  'completed',
] as const;

export const rolloutStatus = z.strictObject({
  state: z.enum(ROLLOUT_STATES),
  target: text(256).optional(),
  baseline: z.array(text(256)).max(100, 'must have at most 100 entries'),
  wave: z.strictObject({ index: z.number().int().min(-1), name: text(64), of: int }).optional(),
  counts: z.strictObject(
    Object.fromEntries([['targeted', int], ...NODE_STATES.map((s) => [s, int])]) as Record<
      'targeted' | (typeof NODE_STATES)[number],
      typeof int
    >,
  ),
  failures: z
    .record(text(300), int)
    .refine((f) => Object.keys(f).length <= 50, 'must have at most 50 reasons'),
  failureRate: z.strictObject({
    measured: z.number().min(0).max(100),
    threshold: z.number().min(0).max(100),
    verdicts: int,
    failures: int,
    minVerdicts: int,
  }),
  lastDecision: z.strictObject({ at: text(40), action: text(40), why: text(500) }).optional(),
  plan: z
    .strictObject({
      lastUpdated: text(40),
      waves: z
        .array(
          z.strictObject({
            index: int,
            name: text(64),
            count: int,
            nodes: z.array(text(512)).max(PREVIEW_NODES, `must have at most ${PREVIEW_NODES} entries`),
          }),
        )
        .max(20, 'must have at most 20 entries'),
    })
    .optional(),
});
export type RolloutStatus = z.infer<typeof rolloutStatus>;

/** The dry run: every wave's count and its first nodes in order. */
export function previewOf(
  plan: Pick<ResolvedPlan, 'waves'>,
  seats: readonly Pick<WaveSeat, 'node' | 'wave' | 'order'>[],
  lastUpdated: string,
): NonNullable<RolloutStatus['plan']> {
  const sorted = [...seats].sort((a, b) => a.order - b.order);
  return {
    lastUpdated,
    waves: plan.waves.map((wave) => {
      const mine = sorted.filter((s) => s.wave === wave.index);
      return {
        index: wave.index,
        name: wave.name,
        count: mine.length,
        nodes: mine.slice(0, PREVIEW_NODES).map((s) => s.node),
      };
    }),
  };
}

const stateOf = (record: RolloutRecord | undefined, awaiting: boolean): RolloutStatus['state'] => {
  if (!record) return 'idle';
  if (record.phase === 'rollingBack') return 'rolling-back';
  if (record.phase === 'rolledBack') return 'rolled-back';
  if (record.phase === 'running' && awaiting) return 'awaiting-approval';
  return record.phase;
};

/** The status of a policy's rollout (or of its plan alone, before any rollout). */
export function summarize(input: {
  plan: ResolvedPlan;
  record?: RolloutRecord | undefined;
  nodes: readonly RolloutNode[];
  preview?: RolloutStatus['plan'];
}): RolloutStatus {
  const { plan, record, nodes } = input;
  const acknowledgedAt = record?.acknowledgedAt ?? 0;
  const rate: FailureRate = failureRate({ plan, nodes, acknowledgedAt });
  const failures: Record<string, number> = {};
  for (const n of nodes)
    if (n.state === 'failed' && n.reason) failures[n.reason] = (failures[n.reason] ?? 0) + 1;
  const wave = record && record.wave >= 0 ? plan.waves[record.wave] : undefined;
  return {
    state: stateOf(record, record?.lastDecision.action === 'await-approval'),
    ...(record ? { target: record.target } : {}),
    baseline: record?.baseline ?? [],
    ...(record ? { wave: { index: record.wave, name: wave?.name ?? '', of: plan.waves.length } } : {}),
    counts: countStates(nodes),
    failures,
    failureRate: rate,
    ...(record
      ? {
          lastDecision: {
            at: new Date(record.lastDecision.at).toISOString(),
            action: record.lastDecision.action,
            why: record.lastDecision.why.slice(0, 500),
          },
        }
      : {}),
    ...(input.preview ? { plan: input.preview } : {}),
  };
}
