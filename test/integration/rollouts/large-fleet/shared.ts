/**
 * The gate against 80 scripted nodes (docs/rollouts.md#the-gate), through the agbot's shared round
 * on the in-stack (DynamoDB) store over the in-process Exchange, the clock a setting moved 15 s a
 * round: what both large-fleet files share (each starts its own Exchange, fleet and agbot).
 * `release.test.ts` rolls a good release out through noise and a crash of the agbot;
 * `rollback.test.ts` trips the gate on a broken one and rolls every node back.
 *
 * 80 nodes are enough for each of those: a canary wave, an early wave of 16 that alone reaches the
 * gate's 20 verdicts with the canaries, and a last wave of 59 that fills maxInFlight (25). A file's
 * time grows with the nodes (about 1.3 s a node here); how the hub holds 1,000 and more is
 * `npm run bench:scale`'s question (docs/benchmarks.md). ROLLOUT_FLEET runs them with more.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { IN_FLIGHT } from '#lib/rollout/states';
import {
  createFleet,
  exchangeSettings,
  type Fleet,
  type FleetNode,
  openAgbot,
  startExchange,
  type TestAgbot,
  type TestExchange,
} from '../fleet.ts';

export const COUNT = Number(process.env.ROLLOUT_FLEET ?? 80);
export const CANARIES = 5;
export const MAX_IN_FLIGHT = 25;
export const ORG = 'large';
export const POLICY = `${ORG}/web`;
export const plan = {
  waves: [
    { name: 'canary', nodes: CANARIES, maxFailures: 0 },
    { name: 'early', percent: 20 },
    { name: 'rest' },
  ],
  canary: 'ring == canary',
  maxInFlight: MAX_IN_FLIGHT,
  verify: { runningSeconds: 40, deadlineSeconds: 600, heartbeatSeconds: 86_400 },
  gate: { maxFailurePercent: 10, minVerdicts: 20 },
  onAbort: 'rollback',
};

let exchange: TestExchange;
export let fleet: Fleet;
export let agbot: TestAgbot;
let settingsBack: (() => void) | undefined;
/** The agbot dies right after its `at`-th revisit write once armed (then starts again). */
export const crash = { armed: false, revisits: 0, at: 3, crashed: 0 };
const crashing = (store: AgbotStore): AgbotStore => ({
  ...store,
  revisit: async (policy, node) => {
    await store.revisit(policy, node);
    if (crash.armed && ++crash.revisits === crash.at) {
      crash.armed = false;
      crash.crashed += 1;
      throw new Error('killed after a revisit write');
    }
  },
});

/** This file's Exchange, fleet and agbot, started before its tests and stopped after them. */
export function useLargeFleet(): void {
  beforeAll(async () => {
    // The Exchange re-verifies a token (scrypt) once its 60 s verification cache entry expired, so
    // over this file's minutes each node was hashed again at most rounds it answered (a round of
    // 210 proposals alone outlasts 60 s beside a loaded machine). Authentication is not
    // this file's subject (test/integration/security/identity-cache.test.ts).
    settingsBack = exchangeSettings({ authCacheSeconds: 3600 });
    exchange = await startExchange();
    fleet = await createFleet(exchange, ORG, COUNT, (i) =>
      i < CANARIES ? [{ name: 'ring', value: 'canary' }] : [],
    );
    // The reply timeout above a round's real time at this size (a round of 210 proposals takes ~30 s).
    // The agbot's Exchange is this process, busy with the fleet: its 10 s bound on a request failed
    // a round beside a loaded machine, and only bounds a failure here.
    agbot = await openAgbot(exchange, ORG, 'dynamo', crashing, 300, {
      HZN_AGBOT_EXCHANGE_TIMEOUT_SECONDS: '120',
    });
  }, 240_000);
  afterAll(async () => {
    agbot?.close();
    await exchange?.close();
    settingsBack?.();
  });
}

export async function status() {
  return (await fleet.call('GET', `/orgs/${ORG}/business/policies/web/rollout/status`)).body?.statuses?.[0];
}
export const on = (version: string) => fleet.nodes.filter((n) => n.running?.version === version);
export const named = (n: FleetNode) => `${ORG}/${n.id}`;

/** Rounds (the fleet answering, the clock moving 15 s) until `done`; `check` after each round. */
export async function rounds(done: () => Promise<boolean>, check: () => Promise<void>, max = 200) {
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await agbot.round().catch(async (error: Error) => {
      if (!/killed after/.test(error.message)) throw error;
      await agbot.restart();
    });
    await fleet.act();
    agbot.clock.skew += 15_000;
    await check();
  }
  throw new Error(
    `not done after ${max} rounds: ${JSON.stringify((await status())?.counts)}; running ${fleet.nodes.filter((n) => n.running).length}`,
  );
}

/** Nodes of the last wave, as the agbot placed them. */
export async function lastWave(): Promise<Set<string>> {
  const rows = await agbot.ctx.store.rolloutNodes(POLICY);
  return new Set(rows.filter((r) => r.wave === plan.waves.length - 1).map((r) => r.node));
}

/** What must hold after every round of a rollout of `target`. */
export async function invariants(target: string, seen: { maxInFlight: number }) {
  const rows = await agbot.ctx.store.rolloutNodes(POLICY);
  const last = new Set(rows.filter((r) => r.wave === plan.waves.length - 1).map((r) => r.node));
  const admitted = new Set(rows.filter((r) => r.admittedAt !== undefined).map((r) => r.node));
  const record = await agbot.ctx.store.rollout(POLICY);
  for (const node of fleet.nodes)
    if (node.ran.includes(target) && record?.target === target)
      expect(admitted.has(named(node)), `${node.id} got ${target} without being admitted`).toBe(true);
  const inFlight = rows.filter((r) => IN_FLIGHT.has(r.state)).length;
  seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
  const flying = rows.filter((r) => IN_FLIGHT.has(r.state));
  expect(
    inFlight,
    JSON.stringify({
      record,
      flying: flying.map((r) => [r.node, r.state, r.wave, r.admittedAt, r.reason]),
    }),
  ).toBeLessThanOrEqual(MAX_IN_FLIGHT);
  if (record?.target === target && record.wave < 2)
    for (const node of fleet.nodes)
      if (last.has(named(node))) expect(node.ran, `${node.id} is in the last wave`).not.toContain(target);
}
