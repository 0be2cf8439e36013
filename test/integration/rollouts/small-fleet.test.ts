/**
 * Real rollouts through the agbot's shared round (docs/rollouts.md), on both agbot stores, against
 * four scripted nodes over the in-process Exchange: a canary of one, then the rest. A good version
 * completes; a broken one (its container exits at once) fails the canary, the rollout aborts with
 * rollback, every node ends on the old version and no node outside the canary ever got the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASON } from '#lib/protocol/reason-codes';
import { IN_FLIGHT } from '#lib/rollout/states';
import { rolloutOrder } from '#lib/rollout/waves';
import {
  createFleet,
  type Fleet,
  type FleetNode,
  openAgbot,
  runUntil,
  type StoreKind,
  startExchange,
  type TestExchange,
} from './fleet.ts';

let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startExchange();
});
afterAll(async () => {
  await exchange?.close();
});

const plan = {
  waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, { name: 'rest' }],
  verify: { runningSeconds: 0, heartbeatSeconds: 3600 },
  onAbort: 'rollback',
};

async function rolloutStatus(fleet: Fleet) {
  const answer = await fleet.call('GET', `/orgs/${fleet.org}/business/policies/web/rollout/status`);
  return answer.body?.statuses?.[0];
}

const on = (fleet: Fleet, version: string) => fleet.nodes.filter((n) => n.running?.version === version);
const ran = (fleet: Fleet, version: string) => fleet.nodes.filter((n) => n.ran.includes(version));

describe.each(['dynamo', 'sqlite'] as StoreKind[])('a rollout to 4 nodes (%s store)', (kind) => {
  it('moves a good version canary first, and rolls a broken one back from the canary alone', async () => {
    const fleet = await createFleet(exchange, `small-${kind}`, 4);
    await fleet.publish(['1.0.0']);
    expect((await fleet.call('PUT', `/orgs/${fleet.org}/business/policies/web/rollout`, plan)).status).toBe(
      201,
    );
    const agbot = await openAgbot(exchange, fleet.org, kind);
    try {
      await runUntil(agbot, fleet, () => on(fleet, '1.0.0').length === 4);

      // A good version: the canary first, the rest once it succeeded.
      await fleet.publish(['1.1.0', '1.0.0']);
      const canaryFirst: number[] = [];
      await runUntil(agbot, fleet, async () => {
        const status = await rolloutStatus(fleet);
        if (status?.target === '1.1.0' && status.wave?.index === 0)
          canaryFirst.push(ran(fleet, '1.1.0').length);
        return status?.state === 'completed' && on(fleet, '1.1.0').length === 4;
      });
      expect(Math.max(...canaryFirst)).toBe(1);
      const good = await rolloutStatus(fleet);
      expect(good).toMatchObject({
        state: 'completed',
        target: '1.1.0',
        baseline: ['1.0.0'],
        counts: { targeted: 4, succeeded: 4, failed: 0 },
      });

      // A broken version: the canary fails (103), the gate trips, the canary goes back.
      fleet.versions.set('2.0.0', 'broken');
      await fleet.publish(['2.0.0', '1.1.0']);
      await runUntil(agbot, fleet, async () => {
        const status = await rolloutStatus(fleet);
        return (
          status?.target === '2.0.0' && status.state === 'rolled-back' && on(fleet, '1.1.0').length === 4
        );
      });
      const broken = await rolloutStatus(fleet);
      expect(broken).toMatchObject({
        state: 'rolled-back',
        target: '2.0.0',
        baseline: ['1.1.0'],
        failures: { '103 service terminated': 1 },
        counts: { targeted: 4, waiting: 3, failed: 1 },
      });
      expect(ran(fleet, '2.0.0')).toHaveLength(1);
      // Rounds later, still nobody else got it (pinned away for good).
      for (let i = 0; i < 3; i++) {
        await agbot.round();
        await fleet.act();
      }
      expect(ran(fleet, '2.0.0')).toHaveLength(1);
      expect(on(fleet, '1.1.0')).toHaveLength(4);
    } finally {
      agbot.close();
    }
  }, 180_000);
});

describe('a node that comes back', () => {
  it('waits for a free slot: nodes in flight never exceed maxInFlight', async () => {
    const fleet = await createFleet(exchange, 'back', 3);
    const policy = `${fleet.org}/web`;
    await fleet.publish(['1.0.0']);
    const oneAtATime = {
      ...plan,
      waves: [{ name: 'all' }],
      maxInFlight: 1,
      verify: { runningSeconds: 3000, deadlineSeconds: 9000, heartbeatSeconds: 86_400 },
    };
    expect(
      (await fleet.call('PUT', `/orgs/${fleet.org}/business/policies/web/rollout`, oneAtATime)).status,
    ).toBe(201);
    // Replies are read a round later: the reply timeout (120 s) above the clock's steps (60 s).
    const agbot = await openAgbot(exchange, fleet.org, 'sqlite', undefined, 120);
    const rows = async () => new Map((await agbot.ctx.store.rolloutNodes(policy)).map((r) => [r.node, r]));
    const inFlight = async () => [...(await rows()).values()].filter((r) => IN_FLIGHT.has(r.state)).length;
    try {
      await runUntil(agbot, fleet, () => on(fleet, '1.0.0').length === 3);
      // The first admitted never answers: once the protocol gives up on it (120 s), it is offline.
      const order = rolloutOrder(
        policy,
        fleet.nodes.map((n) => ({ node: `${fleet.org}/${n.id}`, canary: false })),
      );
      const first = fleet.nodes.find((n) => `${fleet.org}/${n.id}` === order[0]);
      if (!first) throw new Error('no first node');
      const firstName = `${fleet.org}/${first.id}`;
      first.script.set('1.1.0', 'silent');
      await fleet.publish(['1.1.0', '1.0.0']);
      await runUntil(agbot, fleet, async () => {
        agbot.clock.skew += 31_000;
        return (await rows()).get(firstName)?.state === 'offline';
      });
      // The second is admitted and verifies (for 3,000 s); the first comes back meanwhile (the
      // agbot proposes to it again at its next search of the policy, within minutes).
      await runUntil(agbot, fleet, async () => (await inFlight()) === 1);
      first.script.clear();
      await runUntil(agbot, fleet, async () => {
        expect(await inFlight()).toBeLessThanOrEqual(1);
        agbot.clock.skew += 60_000;
        return first.running?.version === '1.1.0';
      });
      for (let i = 0; i < 3; i++) {
        await agbot.round();
        await fleet.act();
        expect(await inFlight()).toBe(1);
        expect((await rows()).get(firstName)?.state).toBe('offline');
      }
      // Time passes: each is verified in turn, one at a time, and the rollout completes.
      await runUntil(
        agbot,
        fleet,
        async () => {
          expect(await inFlight()).toBeLessThanOrEqual(1);
          agbot.clock.skew += 60_000;
          return (await rolloutStatus(fleet))?.state === 'completed';
        },
        200,
      );
      expect(on(fleet, '1.1.0')).toHaveLength(3);
    } finally {
      agbot.close();
    }
  });
});

describe('nodes that renegotiate or leave during a rollout', () => {
  it('a waiting node whose agreement ends gets its baseline back; an unregistered admitted node is no failure', async () => {
    const fleet = await createFleet(exchange, 'leave', 4, (i) =>
      i === 0 ? [{ name: 'ring', value: 'canary' }] : [],
    );
    await fleet.publish(['1.0.0']);
    const canaryPlan = {
      ...plan,
      canary: 'ring == canary',
      // The canary stays verifying while the clock stands still: the others keep waiting.
      verify: { runningSeconds: 3000, heartbeatSeconds: 86_400 },
    };
    expect(
      (await fleet.call('PUT', `/orgs/${fleet.org}/business/policies/web/rollout`, canaryPlan)).status,
    ).toBe(201);
    const agbot = await openAgbot(exchange, fleet.org, 'sqlite');
    const [canary, waiting] = fleet.nodes as [FleetNode, FleetNode];
    try {
      await runUntil(agbot, fleet, () => on(fleet, '1.0.0').length === 4);
      await fleet.publish(['1.1.0', '1.0.0']);
      await runUntil(agbot, fleet, () => canary.running?.version === '1.1.0');

      // Its user ends a waiting node's agreement: the agbot proposes again, the baseline.
      const from = waiting.received.at(-1);
      if (!from) throw new Error('the waiting node got nothing');
      const ended = waiting.running?.agreementId;
      await waiting.cancel(from, REASON.userRequested);
      await runUntil(
        agbot,
        fleet,
        () => waiting.running !== undefined && waiting.running.agreementId !== ended,
      );
      expect(waiting.running?.version).toBe('1.0.0');
      expect(waiting.ran).not.toContain('1.1.0');

      // The canary is unregistered mid-verification: it leaves the rollout, it did not fail it.
      expect((await fleet.call('DELETE', `/orgs/${fleet.org}/nodes/${canary.id}`)).status).toBe(204);
      const policy = `${fleet.org}/web`;
      const canaryRow = async () =>
        (await agbot.ctx.store.rolloutNodes(policy)).find((r) => r.node === `${fleet.org}/${canary.id}`);
      await runUntil(agbot, fleet, async () => {
        agbot.clock.skew += 60_000;
        const state = (await canaryRow())?.state;
        return state !== 'deploying' && state !== 'verifying';
      });
      expect(['offline', 'left']).toContain((await canaryRow())?.state);
      expect((await rolloutStatus(fleet))?.counts).toMatchObject({ failed: 0 });
    } finally {
      agbot.close();
    }
  });
});

describe('a fleet without a plan', () => {
  it('costs one plan read per served policy per start; a plan set later is read from the feed', async () => {
    const fleet = await createFleet(exchange, 'noplan', 2);
    await fleet.publish(['1.0.0']);
    const agbot = await openAgbot(exchange, fleet.org, 'sqlite');
    const planPath = `GET /v1/orgs/${fleet.org}/business/policies/web/rollout`;
    try {
      await runUntil(agbot, fleet, () => on(fleet, '1.0.0').length === 2);
      expect(exchange.requests.get(planPath)).toBe(1);
      // Past the full rescan (10 minutes): the policy is searched again, its plan not read.
      agbot.clock.skew += 11 * 60_000;
      for (let i = 0; i < 3; i++) await agbot.round();
      expect(exchange.requests.get(planPath)).toBe(1);
      expect(exchange.requests.get(`PUT /v1/orgs/${fleet.org}/business/policies/web/rollout/status`)).toBe(
        undefined,
      );

      // A plan set now: its change row brings the agbot to read it, and the dry run is reported.
      expect((await fleet.call('PUT', `/orgs/${fleet.org}/business/policies/web/rollout`, plan)).status).toBe(
        201,
      );
      await agbot.round();
      expect(exchange.requests.get(planPath)).toBe(2);
      expect(await rolloutStatus(fleet)).toMatchObject({
        state: 'completed',
        plan: {
          waves: [
            { name: 'canary', count: 1 },
            { name: 'rest', count: 1 },
          ],
        },
      });
    } finally {
      agbot.close();
    }
  });
});
