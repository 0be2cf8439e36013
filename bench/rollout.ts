/**
 * Staged rollouts (issue 34): `npm run bench:rollout`. Two parts, each printing its figures.
 *
 * 1. **Four real agents** (`npm start`, the in-stack agbot, four `dist/agent.mjs`, podman): every
 *    node on 1.0.0, then 1.1.0 rolled out in three waves (a canary of one, one node, the rest),
 *    each soaked ROLLOUT_SOAK_SECONDS (5) and every node verified running ROLLOUT_RUNNING_SECONDS
 *    (5). Prints the time from the policy's update to the rollout completed with every node
 *    running 1.1.0, and when each node first reported 1.1.0 running. The agbot's schedule is driven
 *    as the tests do (its minute, sooner), so the time is the protocol's and the soaks', not the
 *    schedule's. Skipped (with a line) without a container engine.
 * 2. **DynamoDB calls per admitted node**, in-process (the Exchange's handlers and the agbot's
 *    shared round on the in-stack store, so every call of both sides is counted): ROLLOUT_NODES
 *    (100) scripted nodes moved from one version to the next with a three-wave plan and, for the
 *    ratio, without a plan (every node at once, as before rollouts).
 *
 * The idle fleet's cost with status reporting on is `npm run bench:fleet`'s.
 */
import { busyboxTestImage, reachableEngine } from '../agent/test-support/engine.ts';
import { buildAgent } from '../test/e2e/support/idle-agents.ts';
import { startBenchDynamo } from './env.ts';

const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const SOAK_S = env('ROLLOUT_SOAK_SECONDS', 5);
const RUNNING_S = env('ROLLOUT_RUNNING_SECONDS', 5);
const NODES = env('ROLLOUT_NODES', 100);

const threeWaves = (soakSeconds: number, runningSeconds: number) => ({
  waves: [
    { name: 'canary', nodes: 1, soakSeconds, maxFailures: 0 },
    { name: 'early', nodes: 1, soakSeconds },
    { name: 'rest' },
  ],
  canary: 'ring == canary',
  verify: { runningSeconds, deadlineSeconds: 600, heartbeatSeconds: 86_400 },
  onAbort: 'rollback',
});

async function realAgents(): Promise<void> {
  console.log('## Four real agents, three waves\n');
  const engine = await reachableEngine();
  if (!engine) {
    console.log('No container engine (DOCKER_HOST): skipped.\n');
    return;
  }
  buildAgent();
  await busyboxTestImage();
  const { startSystem } = await import('../test/e2e/support/system.ts');
  const { RUNS, removeRolloutContainers, startRolloutAgents } = await import(
    '../test/e2e/support/rollout-agents.ts'
  );
  const system = await startSystem('bench-rollout', 'bench-rollout-root-pw');
  try {
    const nodes = ['canary', 'n1', 'n2', 'n3'];
    const fleet = await startRolloutAgents(system, { org: 'benchroll', nodes, canaries: ['canary'] });
    await fleet.publishVersion('1.0.0', RUNS);
    await fleet.publishVersion('1.1.0', RUNS);
    await fleet.offer(['1.0.0']);
    await fleet.setPlan(threeWaves(SOAK_S, RUNNING_S));
    await fleet.rounds('1.0.0 everywhere', () => fleet.everyNodeOn('1.0.0'));

    const started = Date.now();
    await fleet.offer(['1.1.0', '1.0.0']);
    const firstRunning = new Map<string, number>();
    await fleet.rounds('the rollout completed', async () => {
      for (const [node, version] of Object.entries(await fleet.runningVersions()))
        if (version === '1.1.0' && !firstRunning.has(node)) firstRunning.set(node, Date.now() - started);
      return (await fleet.rollout())?.state === 'completed' && (await fleet.everyNodeOn('1.1.0'));
    });
    const total = (Date.now() - started) / 1000;
    console.log(`| Node | 1.1.0 first reported running (s after the policy's update) |`);
    console.log('| ---- | ----: |');
    for (const [node, ms] of [...firstRunning].sort((a, b) => a[1] - b[1]))
      console.log(`| ${node} | ${(ms / 1000).toFixed(1)} |`);
    console.log(
      `\nPolicy updated → rollout completed, every node running 1.1.0: **${total.toFixed(1)} s** (soak ${SOAK_S} s × 2 waves, running ${RUNNING_S} s per node).\n`,
    );
  } finally {
    await system.stop();
    await removeRolloutContainers(engine);
  }
}

async function callsPerAdmittedNode(): Promise<void> {
  console.log(`## DynamoDB calls per admitted node (${NODES} scripted nodes, in-process)\n`);
  const dynamo = await startBenchDynamo();
  try {
    const { dynamoCallCount } = await import('#tables/client');
    const { createFleet, openAgbot, runUntil, startExchange } = await import(
      '../test/integration/rollouts/fleet.ts'
    );
    const exchange = await startExchange();
    const rows: string[] = [];
    for (const withPlan of [false, true]) {
      const org = withPlan ? 'planned' : 'unplanned';
      const fleet = await createFleet(exchange, org, NODES, (i) =>
        i === 0 ? [{ name: 'ring', value: 'canary' }] : [],
      );
      const agbot = await openAgbot(exchange, org, 'dynamo', undefined, 300);
      await fleet.publish(['1.0.0']);
      if (withPlan) {
        const put = await fleet.call('PUT', `/orgs/${org}/business/policies/web/rollout`, threeWaves(0, 15));
        if (put.status !== 201) throw new Error(`plan: ${put.status}`);
      }
      const on = (version: string) => fleet.nodes.every((n) => n.running?.version === version);
      await runUntil(agbot, fleet, () => on('1.0.0'), 60);
      const before = dynamoCallCount();
      await fleet.publish(['1.1.0', '1.0.0']);
      const rounds = await runUntil(
        agbot,
        fleet,
        async () => {
          agbot.clock.skew += 15_000;
          if (!on('1.1.0')) return false;
          if (!withPlan) return true;
          const status = await fleet.call('GET', `/orgs/${org}/business/policies/web/rollout/status`);
          return status.body?.statuses?.[0]?.state === 'completed';
        },
        200,
      );
      const calls = dynamoCallCount() - before;
      rows.push(
        `| ${withPlan ? 'three waves (canary 1, 1, rest)' : 'no plan (every node at once)'} | ${rounds} | ${calls} | ${(calls / NODES).toFixed(1)} |`,
      );
      agbot.close();
    }
    await exchange.close();
    console.log('| Policy | Rounds | DynamoDB calls (Exchange and agbot) | Per node moved |');
    console.log('| ------ | -----: | ----------------------------------: | -------------: |');
    for (const row of rows) console.log(row);
    console.log(
      "\nThe calls count the whole move: the policy update, proposals, replies, agreements, node status writes, the agbot's rounds and its rollout records and status item.\n",
    );
  } finally {
    await dynamo.stop();
  }
}

await callsPerAdmittedNode();
await realAgents();
process.exit(0);
