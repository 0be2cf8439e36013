/**
 * The operator's actions on a rollout (docs/rollouts.md#operators), as the Exchange keeps them
 * beside the plan: each action takes the next sequence number, and the agbot applies those past
 * the last one it applied, once, to its rollout record (`applyControl`).
 */
import * as z from 'zod';
import type { RolloutNode, RolloutRecord } from './states.ts';

const seq = z.number().int().min(1);
const nodeName = z.string().min(3).max(512);

export const rolloutControl = z.object({
  seq: z.number().int().min(0),
  pause: z.object({ seq, reason: z.string().optional() }).optional(),
  resume: z.object({ seq }).optional(),
  promote: z.object({ seq, wave: z.number().int().min(0).optional() }).optional(),
  abort: z.object({ seq, action: z.enum(['pause', 'rollback']).optional() }).optional(),
  retries: z.array(z.object({ seq, failed: z.boolean().optional(), nodes: z.array(nodeName).optional() })),
});
export type RolloutControl = z.infer<typeof rolloutControl>;

export const EMPTY_CONTROL: RolloutControl = { seq: 0, retries: [] };
/** Retry requests the Exchange keeps (the newest). */
export const RETRIES_KEPT = 20;

/** Bodies of the action routes. */
export const pauseBody = z.strictObject({
  reason: z.string().max(500, 'must be at most 500 characters').optional(),
});
export const resumeBody = z.strictObject({});
export const promoteBody = z.strictObject({
  wave: z
    .number()
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(19, 'must be at most 19')
    .optional(),
});
export const abortBody = z.strictObject({ action: z.enum(['pause', 'rollback']).optional() });
export const retryBody = z
  .strictObject({
    failed: z.literal(true).optional(),
    nodes: z
      .array(
        z
          .string()
          .regex(/^[^/]+\/[^/]+$/, 'must be <org>/<node>')
          .max(512),
      )
      .min(1, 'must name at least 1 node')
      .max(1000, 'must name at most 1000 nodes')
      .optional(),
  })
  .refine((b) => (b.failed === undefined) !== (b.nodes === undefined), {
    message: 'give either failed: true or nodes',
  });

/** Whether the operator's pause holds (a pause after the last resume). */
export const operatorPaused = (control: RolloutControl): boolean =>
  (control.pause?.seq ?? 0) > (control.resume?.seq ?? 0);

export interface Applied {
  record: RolloutRecord;
  /** Nodes whose rows change (retries). */
  nodes: RolloutNode[];
  /** What was applied, for the log and the decision. */
  applied: string[];
}

/**
 * Applies the actions the record has not applied yet. Actions older than the rollout (before
 * `startSeq`) are ignored, except a pause still in force (pause, then publish a new version).
 */
export function applyControl(
  record: RolloutRecord,
  control: RolloutControl,
  nodes: readonly RolloutNode[],
  onAbort: 'pause' | 'rollback',
  now: number,
): Applied {
  const next = { ...record };
  const changed: RolloutNode[] = [];
  const applied: string[] = [];
  const fresh = (s: number | undefined) => s !== undefined && s > record.controlSeq && s > record.startSeq;
  const live = next.phase === 'running' || next.phase === 'paused';
  if (fresh(control.abort?.seq) && live) {
    const action = control.abort?.action ?? onAbort;
    if (action === 'rollback') {
      next.phase = 'rollingBack';
      delete next.pausedBy;
    } else {
      next.phase = 'paused';
      next.pausedBy = 'operator';
    }
    applied.push(`abort (${action})`);
  }
  if (fresh(control.resume?.seq) && next.phase === 'paused' && !operatorPaused(control)) {
    next.phase = 'running';
    delete next.pausedBy;
    next.acknowledgedAt = now;
    applied.push('resume');
  }
  if (operatorPaused(control) && next.phase === 'running') {
    next.phase = 'paused';
    next.pausedBy = 'operator';
    applied.push('pause');
  }
  if (fresh(control.promote?.seq)) {
    next.approvedThrough = Math.max(next.approvedThrough, control.promote?.wave ?? next.wave + 1);
    applied.push(`promote wave ${next.approvedThrough}`);
  }
  for (const retry of control.retries) {
    if (!fresh(retry.seq) || next.phase === 'rollingBack' || next.phase === 'rolledBack') continue;
    const named = new Set(retry.nodes ?? []);
    for (const node of nodes) {
      const wanted = retry.failed
        ? node.state === 'failed'
        : named.has(node.node) && node.state !== 'waiting';
      if (!wanted || node.state === 'deploying' || node.state === 'verifying') continue;
      const { reason: _r, verdictAt: _v, admittedAt: _a, containers: _c, restarts: _x, ...kept } = node;
      changed.push({ ...kept, state: 'waiting', since: now });
    }
    applied.push(retry.failed ? 'retry failed nodes' : `retry ${named.size} node(s)`);
  }
  next.controlSeq = Math.max(next.controlSeq, control.seq);
  return { record: next, nodes: changed, applied };
}
