/**
 * A fleet at scale (issue 36, first part): `npm run bench:scale`. SCALE_NODES (1,000) scripted
 * nodes in this process (test/integration/rollouts/fleet.ts: each registers with a node policy
 * through the Exchange's routes, answers proposals with the real envelope, records its agreement
 * and writes its node status as the agent does; one key pair for the fleet) over the Exchange's
 * handlers behind an in-process HTTP server and its own DynamoDB Local. Then, for the agbot's
 * shared round on each store (SCALE_AGBOTS, default `dynamo,sqlite`: the in-stack agbot's store
 * and the standalone one's), a deployment policy added and rounds run back to back (the nodes
 * answering between rounds) until every node has finalized an agreement. Prints:
 *
 * - registration: nodes per second, DynamoDB calls per node, this process's heap per node;
 * - policy added → 50%, 99% and 100% of the nodes finalized (wall time and rounds);
 * - DynamoDB calls of the whole hub (Exchange and agbot) per agreement formed;
 * - the agbot's rounds: duration (p50, max) and proposals per round;
 * - latency (p50, p99, max) of `GET /orgs/{org}/nodes/{id}` and of the org's node list while the
 *   agreements form, one of each every SCALE_PROBE_MS (250).
 *
 * What it does not do yet (docs/benchmarks.md says): the signal channel, nodes idling at the
 * agent's intervals, the stack's own stream-driven invocation of the round.
 */
import { startBenchDynamo } from './env.ts';
import { percentile, round } from './stats.ts';

const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const NODES = env('SCALE_NODES', 1000);
const PROBE_MS = env('SCALE_PROBE_MS', 250);
const KINDS = (process.env.SCALE_AGBOTS ?? 'dynamo,sqlite').split(',') as ('dynamo' | 'sqlite')[];
const seconds = (ms: number) => (ms / 1000).toFixed(1);

const dynamo = await startBenchDynamo();
try {
  const { dynamoCallCount, dynamoCallsByLabel, withCallLabel } = await import('#tables/client');
  const { createFleet, openAgbot, startExchange } = await import('../test/integration/rollouts/fleet.ts');
  const { exchangeCall } = await import('../agbot/test-support/scripted-node.ts');
  const exchange = await startExchange();
  console.log(`# ${NODES} simulated nodes (bench/scale.ts)\n`);
  for (const kind of KINDS) {
    const org = `scale-${kind}`;
    const gc = (globalThis as { gc?: () => void }).gc; // node --expose-gc (npm run bench:scale)
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const callsBefore = dynamoCallCount();
    const registering = Date.now();
    const fleet = await createFleet(exchange, org, NODES);
    const registerMs = Date.now() - registering;
    const registerCalls = dynamoCallCount() - callsBefore;
    gc?.();
    const heapPerNode = (process.memoryUsage().heapUsed - heapBefore) / NODES;
    // The Exchange here is one Node process serving the whole fleet (on AWS it scales out): its
    // slowest answers are printed below, not failed on.
    const agbot = await openAgbot(exchange, org, kind, undefined, 600, {
      HZN_AGBOT_EXCHANGE_TIMEOUT_SECONDS: '300',
    });

    // The probes: a node read and the node list, side by side with the agreements forming.
    const latency = { node: [] as number[], list: [] as number[] };
    let probing = true;
    const probe = (async () => {
      for (let i = 0; probing; i++) {
        const node = fleet.nodes[i % NODES];
        for (const [key, path] of [
          ['node', `/orgs/${org}/nodes/${node?.id}`],
          ['list', `/orgs/${org}/nodes`],
        ] as const) {
          const started = performance.now();
          const answer = await exchangeCall(exchange.baseUrl, fleet.admin, 'GET', path);
          if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
          latency[key].push(performance.now() - started);
        }
        await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
      }
    })();

    const started = Date.now();
    const moveCalls = dynamoCallCount();
    const byLabelBefore = dynamoCallsByLabel();
    await fleet.publish(['1.0.0']); // the service and the deployment policy
    const reached = new Map<number, { ms: number; rounds: number }>();
    const roundMs: number[] = [];
    const failedRounds: string[] = [];
    const proposals: number[] = [];
    const proposalsSent = () =>
      [...exchange.requests]
        .filter(([key]) => key.startsWith(`POST /v1/orgs/${org}/nodes/`) && key.endsWith('/msgs'))
        .reduce((sum, [, count]) => sum + count, 0);
    for (let rounds = 1; reached.size < 3; rounds++) {
      if (rounds > 500) throw new Error(`not finalized after 500 rounds: ${reached.size}`);
      const sentBefore = proposalsSent();
      const roundStart = performance.now();
      // A round the Exchange refuses (a 503: the feed's numbering behind) is tried again next
      // round, as the stack's next invocation does; counted below.
      await withCallLabel('agbot round (its store)', () => agbot.round()).catch((error: Error) =>
        failedRounds.push(error.message.slice(0, 120)),
      );
      roundMs.push(performance.now() - roundStart);
      proposals.push(proposalsSent() - sentBefore);
      await fleet.act();
      const finalized = fleet.nodes.filter((n) => n.running).length;
      for (const share of [50, 99, 100])
        if (!reached.has(share) && finalized * 100 >= share * NODES)
          reached.set(share, { ms: Date.now() - started, rounds });
    }
    const formedCalls = dynamoCallCount() - moveCalls;
    const byLabel = [...dynamoCallsByLabel()]
      .map(([label, count]) => [label, count - (byLabelBefore.get(label) ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1]);
    probing = false;
    await probe;
    agbot.close();

    const ms = (values: number[], p: number) => round(percentile(values, p), 0);
    console.log(`## The ${kind === 'dynamo' ? 'in-stack' : 'standalone'} agbot's store (${kind})\n`);
    console.log('| Figure | Value |');
    console.log('| ------ | ----- |');
    console.log(
      `| Registration | ${seconds(registerMs)} s, ${round((NODES * 1000) / registerMs, 1)} nodes/s, ${round(registerCalls / NODES, 1)} DynamoDB calls per node |`,
    );
    console.log(`| Heap of this process per simulated node | ${round(heapPerNode / 1024, 1)} KiB |`);
    for (const share of [50, 99, 100]) {
      const at = reached.get(share);
      console.log(
        `| Policy added → ${share}% finalized | ${seconds(at?.ms ?? 0)} s (${at?.rounds} rounds) |`,
      );
    }
    console.log(`| DynamoDB calls of the hub per agreement formed | ${round(formedCalls / NODES, 1)} |`);
    console.log(
      `| Agbot round | p50 ${ms(roundMs, 50)} ms, max ${ms(roundMs, 100)} ms; proposals per round: max ${Math.max(...proposals)} |`,
    );
    console.log(
      `| Rounds that failed (tried again next round) | ${failedRounds.length} ${failedRounds.join('; ')} |`,
    );
    console.log(
      `| GET node during the rollout | p50 ${ms(latency.node, 50)} ms, p99 ${ms(latency.node, 99)} ms, max ${ms(latency.node, 100)} ms (${latency.node.length}) |`,
    );
    console.log(
      `| GET the org's node list (${NODES} nodes, one page) | p50 ${ms(latency.list, 50)} ms, p99 ${ms(latency.list, 99)} ms, max ${ms(latency.list, 100)} ms |`,
    );
    console.log('');
    console.log("DynamoDB calls per agreement formed, by route (or the agbot's store) and command:\n");
    console.log('| Route | Command | Calls per agreement |');
    console.log('| ----- | ------- | ------------------: |');
    for (const [label, count] of byLabel.slice(0, 30)) {
      const at = label.lastIndexOf(' ');
      console.log(`| ${label.slice(0, at)} | ${label.slice(at + 1)} | ${round(count / NODES, 2)} |`);
    }
    console.log('');
  }
  await exchange.close();
} finally {
  await dynamo.stop();
}
process.exit(0);
