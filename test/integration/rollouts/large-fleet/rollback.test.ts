/**
 * A broken release on the large fleet: the canary passes, the next wave fails over the threshold,
 * the gate trips, every node goes back (paced) and no node of the last wave ever gets it
 * (shared.ts says what the fleet is). The fleet first settles on 1.1.0, with no rollout.
 */
import { expect, it } from 'vitest';
import {
  CANARIES,
  COUNT,
  fleet,
  invariants,
  lastWave,
  MAX_IN_FLIGHT,
  named,
  ORG,
  on,
  plan,
  rounds,
  status,
  useLargeFleet,
} from './shared.ts';

useLargeFleet();

it('trips on a release failing in its second wave and rolls every node back, paced', async () => {
  // Every node agrees on 1.1.0 first: with no node on another version, there is nothing to roll out.
  await fleet.publish(['1.1.0']);
  expect((await fleet.call('PUT', `/orgs/${ORG}/business/policies/web/rollout`, plan)).status).toBe(201);
  await rounds(
    async () => on('1.1.0').length === COUNT,
    async () => undefined,
  );
  expect(await status()).toMatchObject({
    counts: { targeted: 0 },
    lastDecision: { action: 'complete', why: 'every node runs 1.1.0: nothing to roll out' },
  });
  fleet.versions.set('2.0.0', 'broken');
  for (const n of fleet.nodes.slice(0, CANARIES)) n.script.set('2.0.0', 'good');
  await fleet.publish(['2.0.0', '1.1.0']);
  const seen = { maxInFlight: 0 };
  await rounds(
    async () => {
      const s = await status();
      return s?.target === '2.0.0' && s.state === 'rolled-back' && on('1.1.0').length === COUNT;
    },
    () => invariants('2.0.0', seen),
  );
  const back = await status();
  expect(back).toMatchObject({ state: 'rolled-back', lastDecision: { action: 'rolled-back' } });
  expect(back.counts.failed).toBeGreaterThanOrEqual(plan.gate.minVerdicts - CANARIES);
  expect(back.counts.rolledBack).toBeGreaterThanOrEqual(CANARIES);
  const ran = fleet.nodes.filter((n) => n.ran.includes('2.0.0'));
  // The canaries and at most what the second wave had in flight when the gate tripped.
  expect(ran.length).toBeLessThanOrEqual(CANARIES + MAX_IN_FLIGHT);
  const last = await lastWave();
  expect(last.size).toBeGreaterThan(COUNT / 2);
  for (const n of ran) expect(last.has(named(n))).toBe(false);
  expect(on('1.1.0')).toHaveLength(COUNT);
}, 900_000);
