import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachableEngine } from '../../agent/test-support/engine.ts';
import { prebuiltFunctions, useTheRunsDynamoDb } from './support/prebuilt.ts';
import {
  EXITS_AT_ONCE,
  type RolloutAgents,
  RUNS,
  removeRolloutContainers,
  startRolloutAgents,
} from './support/rollout-agents.ts';
import { type System, startSystem } from './support/system.ts';

/**
 * A staged rollout across four real agents (issue 34; docs/rollouts.md): `npm start` (the
 * Exchange and its in-stack agbot), four `dist/agent.mjs` and podman. The policy runs 1.0.0 on
 * every node; its plan is a canary of one (the node whose policy says `ring == canary`) then the
 * rest. 1.1.0 goes to the canary first, then to the rest, and the rollout completes. 2.0.0, whose
 * container exits at once, fails on the canary: the gate trips, the canary is rolled back, and
 * every node ends running 1.1.0; no other node ever accepted 2.0.0 (each agent's own agreement
 * record, active and archived, says so). The test drives the agbot's schedule (as its minute
 * would) while it waits, and waits on what each node reports to the Exchange. Skipped without a
 * container engine.
 */
const docker = await reachableEngine();
const NODES = ['canary', 'n1', 'n2', 'n3'];
const plan = {
  waves: [{ name: 'canary', nodes: 1, maxFailures: 0 }, { name: 'rest' }],
  canary: 'ring == canary',
  // Longer than an exit takes to reach the node's status: the agent reports one about a second
  // after the engine's `die` event (docs/rollouts.md, "How long runningSeconds must be"), so the
  // window holds that delay several times over, however loaded the machine. 15 s before the agent
  // watched the engine's events: its reports then waited for a container check.
  verify: { runningSeconds: 5, deadlineSeconds: 300, heartbeatSeconds: 300 },
  onAbort: 'rollback',
};

let system: System;
let fleet: RolloutAgents;
const engine = () => docker as Docker;

describe.skipIf(!docker)('a staged rollout across four real agents', () => {
  const theRunsDynamoDb = useTheRunsDynamoDb();

  beforeAll(async () => {
    system = await startSystem('rollout-agents', 'rollout-agents-root-pw', {
      ...prebuiltFunctions(),
      ...theRunsDynamoDb,
    });
    fleet = await startRolloutAgents(system, { org: 'roll', nodes: NODES, canaries: ['canary'] });
    await fleet.publishVersion('1.0.0', RUNS);
    await fleet.publishVersion('1.1.0', RUNS);
    await fleet.publishVersion('2.0.0', EXITS_AT_ONCE);
    await fleet.offer(['1.0.0']);
    await fleet.setPlan(plan);
    await fleet.rounds('1.0.0 running on every node', () => fleet.everyNodeOn('1.0.0'));
  }, 600_000);

  afterAll(async () => {
    await system?.stop();
    await removeRolloutContainers(engine());
  });

  it('rolls a good version out canary first, then to the rest, and completes', async () => {
    await fleet.offer(['1.1.0', '1.0.0']);
    const canaryFirst = await fleet.rounds('1.1.0 on the canary', async () => {
      const versions = await fleet.runningVersions();
      return versions.canary === '1.1.0' ? versions : undefined;
    });
    // The canary ran it before any other node was admitted.
    const canaryRunningAt = Math.floor(Date.now() / 1000);
    expect(Object.values(canaryFirst).filter((v) => v === '1.1.0')).toHaveLength(1);
    await fleet.rounds(
      '1.1.0 running everywhere, the rollout completed',
      async () => (await fleet.everyNodeOn('1.1.0')) && (await fleet.rollout())?.state === 'completed',
    );
    // The others accepted it only after the canary ran it (their agents' own records say when).
    for (const id of NODES.filter((n) => n !== 'canary'))
      expect(await fleet.acceptedAt(id, '1.1.0')).toBeGreaterThanOrEqual(canaryRunningAt - 1);
    expect(await fleet.rollout()).toMatchObject({
      target: '1.1.0',
      state: 'completed',
      counts: { targeted: 4, succeeded: 4, failed: 0 },
    });
  }, 420_000);

  it('trips on a version that fails on the canary, rolls the canary back, and no other node ever runs it', async () => {
    await fleet.offer(['2.0.0', '1.1.0']);
    const tripped = await fleet.rounds('the rollout of 2.0.0 rolled back', async () => {
      const status = await fleet.rollout();
      return status?.target === '2.0.0' && status.state === 'rolled-back' ? status : undefined;
    });
    expect(tripped).toMatchObject({ counts: { targeted: 4, failed: 1 } });
    expect(tripped.failures).toEqual({ '103 service terminated': 1 });
    await fleet.rounds('1.1.0 running on every node again', () => fleet.everyNodeOn('1.1.0'));
    expect(await fleet.accepted('canary')).toContain('2.0.0');
    for (const id of NODES.filter((n) => n !== 'canary'))
      expect(await fleet.accepted(id)).not.toContain('2.0.0');
  }, 420_000);
});
