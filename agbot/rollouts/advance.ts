/**
 * One step of one policy's rollout (docs/rollouts.md): start it when the policy's top version is
 * new, apply the operator's actions, judge the nodes in flight, then let the gate decide, and
 * report. Every decision is stored before it is acted on; what is left to act on is found again
 * from the store and the live agreements, so a crash between two writes loses nothing.
 */
import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { satisfies } from '#lib/protocol/constraint-eval';
import { deploymentView } from '#lib/protocol/policy-compatibility';
import { REASON } from '#lib/protocol/reason-codes';
import { applyControl, operatorPaused } from '#lib/rollout/control';
import { decideGate } from '#lib/rollout/gate';
import type { RolloutNode, RolloutRecord } from '#lib/rollout/states';
import { previewOf, summarize } from '#lib/rollout/status';
import { assignWaves, type WaveSeat } from '#lib/rollout/waves';
import { cancelAgreement } from '../rounds/cancel.ts';
import type { RoundContext } from '../rounds/context.ts';
import type { LiveAgreements } from '../rounds/live-agreements.ts';
import { nodePolicy } from '../rounds/wire.ts';
import { reportStatus } from './exchange.ts';
import type { PolicyRollout, RolloutMemory } from './hooks.ts';
import { isActive } from './hooks.ts';
import { judgeNode } from './judge.ts';

/** States of a node admitted to the target that a rollback moves back. */
const TO_REVERT: ReadonlySet<string> = new Set(['deploying', 'verifying', 'succeeded', 'offline']);

const nodeOf = (a: AgbotAgreement) => `${a.nodeOrg}/${a.nodeId}`;

export async function advancePolicy(
  ctx: RoundContext,
  memory: RolloutMemory,
  view: PolicyRollout,
  ranked: string[],
  live: LiveAgreements,
): Promise<void> {
  const top = ranked[0];
  if (top === undefined) return;
  const mine = () =>
    new Map(
      live
        .list()
        .filter((a) => a.policy === view.policy && !a.pattern)
        .map((a) => [nodeOf(a), a]),
    );
  if (view.record?.target !== top) {
    const onOthers = [...mine().values()].some((a) => a.service.version !== top);
    if (ranked.length >= 2 && onOthers) await start(ctx, view, top, mine());
    else await settle(ctx, view, top);
  }
  if (isActive(view.record)) await step(ctx, view, live, mine);
  await report(ctx, memory, view, mine());
}

/** Nothing to roll out (every node on the top version, or one version): the top is released. */
async function settle(ctx: RoundContext, view: PolicyRollout, top: string): Promise<void> {
  if (view.record && view.nodes.size > 0) await ctx.store.dropRolloutNodes(view.policy);
  view.nodes.clear();
  view.record = {
    policy: view.policy,
    target: top,
    baseline: [],
    phase: 'completed',
    wave: view.plan.waves.length - 1,
    startedAt: ctx.now(),
    startSeq: view.read.control.seq,
    controlSeq: view.read.control.seq,
    acknowledgedAt: ctx.now(),
    approvedThrough: -1,
    lastDecision: { at: ctx.now(), action: 'complete', why: `every node runs ${top}: nothing to roll out` },
  };
  await ctx.store.saveRollout(view.record);
}

/** Whether each node matches the plan's canary constraint (one node policy read each, only with one). */
async function seatsFor(ctx: RoundContext, view: PolicyRollout, nodes: string[]): Promise<WaveSeat[]> {
  const canary = view.plan.canary;
  const targeted = [];
  for (const node of nodes) {
    if (!canary) {
      targeted.push({ node });
      continue;
    }
    const [org, id] = [node.slice(0, node.indexOf('/')), node.slice(node.indexOf('/') + 1)];
    const policy = nodePolicy.safeParse(await ctx.exchange.nodePolicy(org, id));
    const matches = policy.success && satisfies([canary], deploymentView(policy.data).properties).ok;
    targeted.push({ node, canary: matches });
  }
  return assignWaves(view.plan, view.policy, targeted);
}

async function start(
  ctx: RoundContext,
  view: PolicyRollout,
  top: string,
  mine: Map<string, AgbotAgreement>,
): Promise<void> {
  const now = ctx.now();
  const seats = await seatsFor(ctx, view, [...mine.keys()]);
  const rows: RolloutNode[] = seats.map((seat) => {
    const onTop = mine.get(seat.node)?.service.version === top;
    return { policy: view.policy, ...seat, state: onTop ? 'succeeded' : 'waiting', since: now };
  });
  const baseline = [
    ...new Set([...mine.values()].map((a) => a.service.version).filter((v) => v !== top)),
  ].sort();
  // The rows first, the record last: the record is what says the rollout started.
  await ctx.store.dropRolloutNodes(view.policy);
  await ctx.store.saveRolloutNodes(rows);
  const control = view.read.control;
  view.record = {
    policy: view.policy,
    target: top,
    baseline,
    phase: operatorPaused(control) ? 'paused' : 'running',
    ...(operatorPaused(control) ? { pausedBy: 'operator' as const } : {}),
    wave: -1,
    startedAt: now,
    startSeq: control.seq,
    controlSeq: control.seq,
    acknowledgedAt: now,
    approvedThrough: -1,
    lastDecision: {
      at: now,
      action: 'start',
      why: `${top} over ${baseline.join(', ')}: ${rows.length} node(s) in ${view.plan.waves.length} wave(s)`,
    },
  };
  await ctx.store.saveRollout(view.record);
  view.nodes = new Map(rows.map((n) => [n.node, n]));
  ctx.log.info('rollout started', { policy: view.policy, target: top, baseline, nodes: rows.length });
}

async function saveNodes(ctx: RoundContext, view: PolicyRollout, rows: RolloutNode[]): Promise<void> {
  if (rows.length === 0) return;
  await ctx.store.saveRolloutNodes(rows);
  for (const row of rows) view.nodes.set(row.node, row);
}

async function decide(ctx: RoundContext, view: PolicyRollout, record: RolloutRecord): Promise<void> {
  view.record = record;
  await ctx.store.saveRollout(record);
}

/** Cancels the node's agreement so that the search proposes it the version it may have now. */
async function move(ctx: RoundContext, live: LiveAgreements, agreement: AgbotAgreement): Promise<void> {
  // Looked at again before the archive frees the node: a crash between the two loses nothing.
  await ctx.store.revisit(agreement.policy, nodeOf(agreement));
  await cancelAgreement(ctx, agreement, REASON.agbotPolicyChanged);
  live.ended(agreement.agreementId);
}

async function step(
  ctx: RoundContext,
  view: PolicyRollout,
  live: LiveAgreements,
  mine: () => Map<string, AgbotAgreement>,
): Promise<void> {
  let record = view.record as RolloutRecord;
  const { plan } = view;
  // Nodes that gained an agreement under the policy meanwhile join the last wave.
  const last = plan.waves.length - 1;
  let order = Math.max(-1, ...[...view.nodes.values()].map((n) => n.order));
  const joined: RolloutNode[] = [];
  for (const node of mine().keys())
    if (!view.nodes.has(node))
      joined.push({
        policy: view.policy,
        node,
        wave: last,
        order: ++order,
        state: 'waiting',
        since: ctx.now(),
      });
  await saveNodes(ctx, view, joined);

  const applied = applyControl(record, view.read.control, [...view.nodes.values()], plan.onAbort, ctx.now());
  if (applied.applied.length > 0 || applied.record.controlSeq !== record.controlSeq) {
    await saveNodes(ctx, view, applied.nodes);
    const why = applied.applied.join(', ');
    record = {
      ...applied.record,
      ...(why ? { lastDecision: { at: ctx.now(), action: 'operator', why } } : {}),
    };
    await decide(ctx, view, record);
  }

  // Verdicts and the actions a crash may have left undone.
  for (const row of [...view.nodes.values()]) {
    const next = await judgeNode(ctx, view, record, row, mine().get(row.node), (a) => move(ctx, live, a));
    if (next) await saveNodes(ctx, view, [next]);
  }

  if (record.phase === 'rollingBack') return rollBack(ctx, view, live, mine);
  for (let guard = 0; record.phase === 'running' && guard < plan.waves.length + 2; guard++) {
    const decision = decideGate({
      plan,
      wave: record.wave,
      approvedThrough: record.approvedThrough,
      acknowledgedAt: record.acknowledgedAt,
      now: ctx.now(),
      nodes: [...view.nodes.values()],
    });
    const lastDecision = { at: ctx.now(), action: decision.action, why: decision.why };
    const changed =
      decision.action !== record.lastDecision.action || decision.why !== record.lastDecision.why;
    switch (decision.action) {
      case 'trip':
        ctx.log.warn('rollout gate tripped', {
          policy: view.policy,
          why: decision.why,
          onAbort: plan.onAbort,
        });
        record = {
          ...record,
          phase: plan.onAbort === 'rollback' ? 'rollingBack' : 'paused',
          ...(plan.onAbort === 'rollback' ? {} : { pausedBy: 'gate' as const }),
          lastDecision,
        };
        await decide(ctx, view, record);
        if (record.phase === 'rollingBack') return rollBack(ctx, view, live, mine);
        return;
      case 'advance':
        record = { ...record, wave: decision.wave, lastDecision };
        await decide(ctx, view, record);
        continue;
      case 'complete':
        record = { ...record, phase: 'completed', lastDecision };
        await decide(ctx, view, record);
        ctx.log.info('rollout completed', { policy: view.policy, target: record.target });
        return;
      case 'admit': {
        record = { ...record, lastDecision };
        await decide(ctx, view, record);
        await admit(ctx, view, live, mine, decision.count);
        continue;
      }
      default:
        if (changed) await decide(ctx, view, { ...record, lastDecision });
        return;
    }
  }
}

/** Admits the next waiting nodes of the open wave: each row first, then its baseline agreement ends. */
async function admit(
  ctx: RoundContext,
  view: PolicyRollout,
  live: LiveAgreements,
  mine: () => Map<string, AgbotAgreement>,
  count: number,
): Promise<void> {
  const wave = view.record?.wave;
  const next = [...view.nodes.values()]
    .filter((n) => n.wave === wave && n.state === 'waiting')
    .sort((a, b) => a.order - b.order)
    .slice(0, count);
  const now = ctx.now();
  const rows = next.map((n) => ({ ...n, state: 'deploying' as const, since: now, admittedAt: now }));
  await saveNodes(ctx, view, rows);
  for (const row of rows) {
    const agreement = mine().get(row.node);
    if (agreement && agreement.service.version !== view.record?.target) await move(ctx, live, agreement);
  }
  if (rows.length > 0)
    ctx.log.info('rollout admitted nodes', { policy: view.policy, wave, nodes: rows.map((r) => r.node) });
}

/** Rollback, paced by maxInFlight: nodes given the target go back to their baseline. */
async function rollBack(
  ctx: RoundContext,
  view: PolicyRollout,
  live: LiveAgreements,
  mine: () => Map<string, AgbotAgreement>,
): Promise<void> {
  const record = view.record as RolloutRecord;
  const now = ctx.now();
  // Nodes given the target that may still run it; a failed node is already pinned to its
  // baseline and keeps its verdict, unless it still holds the target.
  const holdsTarget = (n: RolloutNode) =>
    n.admittedAt !== undefined &&
    (TO_REVERT.has(n.state) ||
      (n.state === 'failed' && mine().get(n.node)?.service.version === record.target));
  const toRevert = [...view.nodes.values()].filter(holdsTarget);
  // A node without an agreement now gets its baseline whenever it comes back (the target is pinned away).
  const gone = toRevert
    .filter((n) => !mine().has(n.node))
    .map((n) => ({ ...n, state: 'rolledBack' as const, since: now }));
  await saveNodes(ctx, view, gone);
  const reverting = [...view.nodes.values()].filter((n) => n.state === 'reverting').length;
  const room = Math.max(0, view.plan.maxInFlight - reverting);
  const start = toRevert.filter((n) => mine().has(n.node)).slice(0, room);
  const rows = start.map((n) => ({ ...n, state: 'reverting' as const, since: now }));
  await saveNodes(ctx, view, rows);
  for (const row of rows) {
    const agreement = mine().get(row.node);
    if (agreement?.service.version === record.target) await move(ctx, live, agreement);
  }
  const left = [...view.nodes.values()].filter((n) => n.state === 'reverting' || holdsTarget(n)).length;
  const why =
    left === 0
      ? `every updated node is back on ${record.baseline.join(', ')}`
      : `${left} node(s) still going back`;
  if (left === 0 || why !== record.lastDecision.why)
    await decide(ctx, view, {
      ...record,
      ...(left === 0 ? { phase: 'rolledBack' as const } : {}),
      lastDecision: { at: now, action: left === 0 ? 'rolled-back' : 'roll-back', why },
    });
}

async function report(
  ctx: RoundContext,
  memory: RolloutMemory,
  view: PolicyRollout,
  mine: Map<string, AgbotAgreement>,
): Promise<void> {
  const seats = isActive(view.record)
    ? [...view.nodes.values()]
    : await seatsFor(ctx, view, [...mine.keys()]);
  const status = summarize({
    plan: view.plan,
    record: view.record,
    nodes: [...view.nodes.values()],
    preview: previewOf(view.plan, seats, view.read.lastUpdated),
  });
  const json = JSON.stringify(status);
  if (memory.reported.get(view.policy) === json) return;
  await reportStatus(ctx.exchange, view.policy, status);
  memory.reported.set(view.policy, json);
}
