/**
 * A good release rolled out to the large fleet with noise: offline nodes (never answer: 201, not a
 * verdict), neutral cancels (105: the node left), a few failures under the threshold, and the agbot
 * killed in the middle of a wave (after one of its writes; it starts again with no memory). It
 * completes, never gives the target to a node not admitted, never has more than maxInFlight nodes
 * in flight (shared.ts says what the fleet is).
 */
import { expect, it } from 'vitest';
import { rolloutOrder } from '#lib/rollout/waves';
import type { FleetNode } from '../fleet.ts';
import {
  CANARIES,
  COUNT,
  crash,
  fleet,
  invariants,
  MAX_IN_FLIGHT,
  named,
  ORG,
  on,
  POLICY,
  plan,
  rounds,
  status,
  useLargeFleet,
} from './shared.ts';

useLargeFleet();

it(`rolls a good release out to ${COUNT} nodes through offline nodes, neutral cancels, failures and a crash`, async () => {
  await fleet.publish(['1.0.0']);
  expect((await fleet.call('PUT', `/orgs/${ORG}/business/policies/web/rollout`, plan)).status).toBe(201);
  await rounds(
    async () => on('1.0.0').length === COUNT,
    async () => undefined,
  );

  // The rollout's order, as the agbot computes it: canaries first, then by hash.
  const order = rolloutOrder(
    POLICY,
    fleet.nodes.map((n, i) => ({ node: named(n), canary: i < CANARIES })),
  );
  const byName = new Map(fleet.nodes.map((n) => [named(n), n]));
  // Places in the order as in a fleet of 210, scaled to this one's: past the canaries, spread out.
  const at = (positions: number[]) =>
    positions.map((p) => {
      const place = CANARIES + Math.round(((p - CANARIES) * (COUNT - CANARIES)) / (210 - CANARIES));
      return byName.get(order[place] as string) as FleetNode;
    });
  const silent = at([10, 60, 90, 120, 150, 180, 200]);
  const neutral = at([15, 70, 110, 170]);
  const broken = at([30, 100, 140, 190]);
  expect(new Set([...silent, ...neutral, ...broken]).size).toBe(15);
  for (const n of silent) n.script.set('1.1.0', 'silent');
  for (const n of neutral) n.script.set('1.1.0', 'neutral');
  for (const n of broken) n.script.set('1.1.0', 'broken');
  await fleet.publish(['1.1.0', '1.0.0']);
  const seen = { maxInFlight: 0 };
  await rounds(
    async () => {
      const s = await status();
      // Armed once the second wave is open: the agbot dies in the middle of it.
      if (s?.target === '1.1.0' && s.wave?.index === 1 && crash.crashed === 0) crash.armed = true;
      return s?.target === '1.1.0' && s.state === 'completed';
    },
    () => invariants('1.1.0', seen),
  );
  expect(crash.crashed).toBe(1);
  expect(seen.maxInFlight).toBe(MAX_IN_FLIGHT);
  const done = await status();
  const good = COUNT - silent.length - neutral.length - broken.length;
  expect(done).toMatchObject({
    state: 'completed',
    baseline: ['1.0.0'],
    counts: {
      targeted: COUNT,
      succeeded: good,
      failed: broken.length,
      offline: silent.length,
      left: neutral.length,
      waiting: 0,
      deploying: 0,
      verifying: 0,
    },
    failures: { '103 service terminated': broken.length },
    failureRate: {
      verdicts: good + broken.length,
      failures: broken.length,
      threshold: 10,
      measured: Math.round((broken.length * 10_000) / (good + broken.length)) / 100,
    },
  });
  expect(on('1.1.0')).toHaveLength(good);
  // Failed and neutral nodes are on their baseline; offline ones run nothing.
  expect(
    on('1.0.0')
      .map((n) => n.id)
      .sort(),
  ).toEqual([...broken, ...neutral].map((n) => n.id).sort());
  for (const n of silent) expect(n.running).toBeUndefined();
}, 900_000);
