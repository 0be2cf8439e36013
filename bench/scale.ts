/**
 * A fleet at scale (issue 36, first part): `npm run bench:scale`. SCALE_NODES (1,000) scripted
 * nodes in this process (test/integration/rollouts/fleet.ts: each registers with a node policy
 * through the Exchange's routes, answers proposals with the real envelope, records its agreement
 * and writes its node status as the agent does; one key pair for the fleet) over the Exchange's
 * handlers behind an in-process HTTP server and its own DynamoDB Local. Then, for the agbot's
 * shared round on each store (SCALE_AGBOTS, default `dynamo,sqlite`: the in-stack agbot's store
 * and the standalone one's), a deployment policy added and rounds run back to back until every
 * node has finalized an agreement, while the nodes answer their mail as it arrives (16 side by
 * side, the longest waiting first: `Fleet.answerContinuously`), as agents woken by a signal
 * answer within seconds while the agbot's round is still proposing. Prints:
 *
 * - registration: nodes per second, DynamoDB calls per node, this process's heap per node;
 * - policy added → 50%, 99% and 100% of the nodes finalized (wall time, and the rounds begun by then);
 * - DynamoDB calls of the whole hub (Exchange and agbot) per agreement formed, in all and by route
 *   (the probes below are served apart and not counted);
 * - the agbot's rounds: duration (p50, max) and proposals per round;
 * - latency (p50, p99, max) of `GET /orgs/{org}/nodes/{id}` and of a page of the org's node list
 *   (SCALE_LIST_PAGE, 100) while the agreements form, one of each every SCALE_PROBE_MS (250).
 *
 * - the settled fleet idle: after the rollout's tail, SCALE_IDLE_ROUNDS (3) rounds with the agbot's
 *   clock a minute on for each (the in-stack schedule's cadence), their DynamoDB calls and capacity
 *   units, by route, and the governance's monthly cost per 1,000 nodes at list prices.
 *
 * The stack's stream consumer runs beside the Exchange (it numbers the change feed and moves the
 * org counters of messages and agreements, and wakes the nodes through a simulated signal channel,
 * SCALE_WAKE below; its calls are counted with the hub's). What it does not do yet
 * (docs/benchmarks.md says): nodes idling at the agent's intervals
 * (their side of the idle cost is bench:fleet's, with real agents), the stack's own stream-driven
 * invocation of the round.
 */
import { startBenchDynamo } from './env.ts';
import { consumedUnits, isReadOperation } from './fleet-proxies.ts';
import { percentile, round } from './stats.ts';

const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
/** Rounds of the settled fleet measured for the idle cost (the in-stack agbot runs one a minute). */
const IDLE_ROUNDS = env('SCALE_IDLE_ROUNDS', 3);
/** The node list page the probes read (`?limit=`, docs/exchange.md#node-list). */
const LIST_PAGE = env('SCALE_LIST_PAGE', 100);
const NODES = env('SCALE_NODES', 1000);
const PROBE_MS = env('SCALE_PROBE_MS', 250);
const KINDS = (process.env.SCALE_AGBOTS ?? 'dynamo,sqlite').split(',') as ('dynamo' | 'sqlite')[];
/**
 * What makes a node read: `signal` (the default), the stack's signal channel, each node woken by
 * the dispatcher's "look now" or "mail now" as the agent is (test/support/simulated-signals.ts); `post`, a node
 * reads as soon as a message posted to it is answered (the benchmark before 2026-12-01: it read
 * before the stream consumer had numbered its rows, and was never woken by anything else).
 */
const WAKE = process.env.SCALE_WAKE === 'post' ? 'post' : 'signal';
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const ms = (values: number[], p: number) => round(percentile(values, p), 0);

// Every node's records and the agreements' rows stay in DynamoDB Local's memory: 512 MB (its
// default here) is not enough for 10,000 nodes.
const dynamo = await startBenchDynamo({ heapMb: env('SCALE_DYNAMO_HEAP_MB', 4096) });
/** Progress of a long run, on stderr (the figures go to stdout). */
const progress = (line: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
try {
  const { dynamoCallCount, dynamoCallsByLabel, withCallLabel, dynamoClient } = await import('#tables/client');
  const { PRICES, PRICES_AS_OF, MINUTES_PER_MONTH } = await import('./fleet-prices.ts');
  const units = countCapacity(dynamoClient);
  const { createFleet, giveMail, openAgbot, startExchange } = await import(
    '../test/integration/rollouts/fleet.ts'
  );
  const { exchangeCall } = await import('../agbot/test-support/scripted-node.ts');
  const exchange = await startExchange({ mailOnPost: WAKE === 'post' });
  const { startSimulatedSignals } = await import('../test/support/simulated-signals.ts');
  const signals =
    WAKE === 'signal'
      ? await startSimulatedSignals((node, signal) => giveMail(exchange, node, signal))
      : undefined;
  // The stack's stream consumer: it numbers the change feed before it would signal, and moves the
  // org counters of messages and agreements (tables/org/stream-counts.ts), so its calls are the
  // hub's too. It reads the stream as often as the local stack's reader does.
  const { startInProcessStreamConsumer } = await import('../test/support/stream-consumer.ts');
  const consumer = await withCallLabel('stream consumer (numbering, counters)', () =>
    startInProcessStreamConsumer({ pollMs: 100, idlePollMs: 100 }),
  );
  // The probes' own server, so that their DynamoDB calls are counted apart from the hub's work.
  const { startExchangeHttp } = await import('#test/support/exchange-http');
  const probes = await startExchangeHttp({ labelPrefix: 'probe ' });
  console.log(
    `# ${NODES} simulated nodes (bench/scale.ts), woken ${WAKE === 'signal' ? 'by the signal channel' : 'when a message to them is posted'}\n`,
  );
  for (const kind of KINDS) {
    const org = `scale-${kind}`;
    const gc = (globalThis as { gc?: () => void }).gc; // node --expose-gc (npm run bench:scale)
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const callsBefore = dynamoCallCount();
    const registering = Date.now();
    // Each simulated node makes the agent's requests (its heartbeat the feed read, both agreement
    // rows), from its registration on (test/integration/rollouts/simulator-honesty.test.ts).
    let told = 0;
    const fleet = await createFleet(exchange, org, NODES, undefined, {
      asTheAgent: true,
      retryNetworkErrors: true,
      // The agent opens its signal channel once registered (its `$connect`: connection and liveness).
      afterRegister: signals?.connect,
      onRegistered: (registered) => {
        if (registered < told + NODES / 10 && registered < NODES) return;
        told = registered;
        progress(`${kind}: ${registered} of ${NODES} nodes registered`);
      },
    });
    // Registration's own rows wake each node once its channel is open, as they wake the agent:
    // answered here, so that those reads count as registration's and not as the rollout's.
    if (signals) {
      await consumer.settled();
      await fleet.act();
    }
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
          ['list', `/orgs/${org}/nodes?limit=${LIST_PAGE}`],
        ] as const) {
          const started = performance.now();
          const answer = await exchangeCall(probes.baseUrl, fleet.admin, 'GET', path);
          if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
          latency[key].push(performance.now() - started);
        }
        await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
      }
    })();

    const started = Date.now();
    const moveCalls = dynamoCallCount();
    const postsBefore = signals?.posts() ?? 0;
    const byLabelBefore = dynamoCallsByLabel();
    await fleet.publish(['1.0.0']); // the service and the deployment policy
    const reached = new Map<number, { ms: number; rounds: number }>();
    const roundMs: number[] = [];
    const failedRounds: string[] = [];
    const proposals: number[] = [];
    /** Requests received so far whose `METHOD path` matches. */
    const requestsLike = (pattern: RegExp) =>
      [...exchange.requests].filter(([key]) => pattern.test(key)).reduce((sum, [, count]) => sum + count, 0);
    const proposalsSent = () => requestsLike(new RegExp(`^POST /v1/orgs/${org}/nodes/[^/]+/msgs$`));
    // What the progress line shows of the agbot's mailbox: the nodes' replies and cancels posted
    // to it, its page reads and its deletes (a rollout whose replies are never read shows here).
    const agbotMailbox = () => {
      const box = `/v1/orgs/${org}/agbots/ab/msgs`;
      return `agbot mailbox: ${requestsLike(new RegExp(`^POST ${box}$`))} posted, ${requestsLike(new RegExp(`^GET ${box}$`))} page reads, ${requestsLike(new RegExp(`^DELETE ${box}/`))} deleted`;
    };
    let rounds = 0;
    const finalizedCount = () => fleet.nodes.filter((n) => n.running).length;
    /** Each share of the fleet finalized, when first reached: the time and the rounds begun by then. */
    const noteReached = () => {
      const finalized = finalizedCount();
      for (const share of [50, 99, 100])
        if (!reached.has(share) && finalized * 100 >= share * NODES)
          reached.set(share, { ms: Date.now() - started, rounds });
    };
    // The nodes answer while the agbot proposes: a proposal and a replyack live 240 s
    // (lib/protocol/timeouts.ts), less than this process takes to answer a round of 3,000 after it
    // ended (docs/benchmarks.md, "The fleet answers while the agbot proposes").
    const answering = fleet.answerContinuously(noteReached);
    // Rounds back to back: in the stack the next round starts as soon as changes arrive.
    while (reached.size < 3 && answering.failure === undefined) {
      rounds += 1;
      if (rounds > 500) throw new Error(`not finalized after 500 rounds: ${reached.size}`);
      const sentBefore = proposalsSent();
      const roundStart = performance.now();
      // A round the Exchange refuses (a 503: the feed's numbering behind) is tried again next
      // round, as the stack's next invocation does; counted below.
      await withCallLabel('agbot round (its store)', () => agbot.round()).catch((error: Error) => {
        failedRounds.push(error.message.slice(0, 120));
        progress(`${kind}: round ${rounds} failed: ${error.message.slice(0, 200)}`);
      });
      roundMs.push(performance.now() - roundStart);
      proposals.push(proposalsSent() - sentBefore);
      progress(
        `${kind}: round ${rounds} took ${seconds(roundMs.at(-1) ?? 0)} s, ${proposals.at(-1)} messages to nodes; ${finalizedCount()} of ${NODES} finalized; ${agbotMailbox()}`,
      );
      noteReached();
    }
    // The passes under way finish (their status writes are part of the agreements counted below);
    // a pass that failed is thrown here.
    await answering.stop();
    const byLabel = [...dynamoCallsByLabel()]
      .map(([label, count]) => [label, count - (byLabelBefore.get(label) ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1]);
    const probeCalls = byLabel.filter(([label]) => label.startsWith('probe ')).reduce((n, [, c]) => n + c, 0);
    const formedCalls = dynamoCallCount() - moveCalls - probeCalls;
    const wakes = (signals?.posts() ?? 0) - postsBefore;
    probing = false;
    await probe;
    // The rollout's figures as soon as they are known: the idle rounds after it take long at scale.
    progress(
      `${kind}: every node finalized; ${round(formedCalls / NODES, 1)} DynamoDB calls per agreement; ` +
        `GET node p50 ${ms(latency.node, 50)} ms, p99 ${ms(latency.node, 99)} ms, max ${ms(latency.node, 100)} ms; ` +
        `node list page p50 ${ms(latency.list, 50)} ms, p99 ${ms(latency.list, 99)} ms, max ${ms(latency.list, 100)} ms`,
    );

    // The settled fleet, idle: rounds back to back (each node answering whatever they send), their
    // DynamoDB calls and capacity units. Time-gated governance (node health, rescans, the mailbox
    // fallback) runs in a round only when due, so these rounds are its floor (docs/benchmarks.md).
    // First the rollout's tail (statuses and feed rows still to read), uncounted; then the
    // counted rounds, the agbot's clock a minute on for each, so that what it does when due
    // (node health, the mailbox fallback) runs as at the in-stack schedule's one round a minute.
    // The nodes heartbeat once first (their feed read, as the agent's poll), so none looks gone.
    // The fleet answers after each round here (`act`), not continuously (stopped above): an idle
    // round is counted with what the nodes answer to it, and act() and the continuous workers
    // would both take a node's mail.
    for (let i = 0; i < 2; i++) {
      await agbot.round();
      await fleet.act();
    }
    for (let i = 0; i < NODES; i += 16)
      await Promise.all(
        fleet.nodes.slice(i, i + 16).map((node) =>
          exchangeCall(exchange.baseUrl, node.creds, 'POST', `/orgs/${org}/changes`, {
            changeId: 0,
            maxRecords: 1,
          }),
        ),
      );
    const idleCallsBefore = dynamoCallCount();
    const idleByLabelBefore = dynamoCallsByLabel();
    units.reset(true);
    const idleMs: number[] = [];
    for (let i = 0; i < IDLE_ROUNDS; i++) {
      agbot.clock.skew += 60_000;
      const idleStart = performance.now();
      await agbot.round();
      idleMs.push(performance.now() - idleStart);
      await fleet.act();
    }
    units.reset(false);
    const idleByLabel = [...dynamoCallsByLabel()]
      .map(([label, count]) => [label, count - (idleByLabelBefore.get(label) ?? 0)] as const)
      .filter(([label, count]) => count > 0 && !label.startsWith('probe '))
      .sort((a, b) => b[1] - a[1]);
    const idle = {
      calls: (dynamoCallCount() - idleCallsBefore) / IDLE_ROUNDS,
      reads: units.reads / IDLE_ROUNDS,
      writes: units.writes / IDLE_ROUNDS,
    };
    // One round a minute (the in-stack schedule), per 1,000 nodes, a month, at list prices.
    const perThousandMonth = (perRound: number, price: number) =>
      ((perRound * MINUTES_PER_MONTH * 1000) / NODES) * price;
    const governance =
      perThousandMonth(idle.reads, PRICES.readUnit) +
      perThousandMonth(idle.writes, PRICES.writeUnit) +
      perThousandMonth(1, PRICES.lambdaRequest) +
      perThousandMonth((percentile(idleMs, 50) / 1000) * 0.5, PRICES.lambdaGbSecond);
    agbot.close();

    console.log(`## The ${kind === 'dynamo' ? 'in-stack' : 'standalone'} agbot's store (${kind})\n`);
    console.log('| Figure | Value |');
    console.log('| ------ | ----- |');
    console.log(
      `| Registration | ${seconds(registerMs)} s, ${round((NODES * 1000) / registerMs, 1)} nodes/s, ${round(registerCalls / NODES, 1)} DynamoDB calls per node |`,
    );
    console.log(`| Heap of this process per simulated node | ${round(heapPerNode / 1024, 1)} KiB |`);
    console.log(`| Node passes tried again after a network error | ${fleet.networkErrors} |`);
    for (const share of [50, 99, 100]) {
      const at = reached.get(share);
      console.log(
        `| Policy added → ${share}% finalized | ${seconds(at?.ms ?? 0)} s (${at?.rounds} rounds) |`,
      );
    }
    console.log(`| DynamoDB calls of the hub per agreement formed | ${round(formedCalls / NODES, 1)} |`);
    if (signals)
      console.log(
        `| Signals ("look now", "mail now") posted per agreement formed | ${round(wakes / NODES, 2)} |`,
      );
    console.log(
      `| Agbot round | p50 ${ms(roundMs, 50)} ms, max ${ms(roundMs, 100)} ms; proposals per round: max ${Math.max(...proposals)} |`,
    );
    console.log(
      `| Rounds that failed (tried again next round) | ${failedRounds.length} ${failedRounds.join('; ')} |`,
    );
    console.log(
      `| Idle round of the settled fleet (${IDLE_ROUNDS}) | p50 ${ms(idleMs, 50)} ms; ${round(idle.calls, 1)} DynamoDB calls, ${round(idle.reads, 1)} read and ${round(idle.writes, 1)} write units (${round((idle.reads * 1000) / NODES, 2)} and ${round((idle.writes * 1000) / NODES, 2)} per 1,000 nodes) |`,
    );
    console.log(
      `| The agbot's governance at one round a minute, per 1,000 node-months (prices of ${PRICES_AS_OF}; 512 MB function) | $${round(governance, 2)} |`,
    );
    console.log(
      `| GET node during the rollout | p50 ${ms(latency.node, 50)} ms, p99 ${ms(latency.node, 99)} ms, max ${ms(latency.node, 100)} ms (${latency.node.length}) |`,
    );
    console.log(
      `| GET a page of the org's node list (${LIST_PAGE} of ${NODES} nodes) | p50 ${ms(latency.list, 50)} ms, p99 ${ms(latency.list, 99)} ms, max ${ms(latency.list, 100)} ms |`,
    );
    console.log('');
    console.log("DynamoDB calls per agreement formed, by route (or the agbot's store) and command:\n");
    console.log('| Route | Command | Calls per agreement |');
    console.log('| ----- | ------- | ------------------: |');
    for (const [label, count] of byLabel.filter(([l]) => !l.startsWith('probe ')).slice(0, 30)) {
      const at = label.lastIndexOf(' ');
      console.log(`| ${label.slice(0, at)} | ${label.slice(at + 1)} | ${round(count / NODES, 2)} |`);
    }
    console.log('');
    console.log(
      'DynamoDB calls of an idle round (the agbot and what the nodes answer), by route and command:\n',
    );
    console.log('| Route | Command | Calls per round |');
    console.log('| ----- | ------- | --------------: |');
    for (const [label, count] of idleByLabel.slice(0, 15)) {
      const at = label.lastIndexOf(' ');
      console.log(`| ${label.slice(0, at)} | ${label.slice(at + 1)} | ${round(count / IDLE_ROUNDS, 2)} |`);
    }
    console.log('');
  }
  await consumer.stop();
  await signals?.close();
  await exchange.close();
  await probes.close();
} finally {
  await dynamo.stop();
}
process.exit(0);

/**
 * Adds ReturnConsumedCapacity to every call while counting and sums the units it reports, reads
 * and writes as bench/fleet-proxies.ts tells them, tables and indexes together.
 */
function countCapacity(client: {
  middlewareStack: { add: (m: never, o: { step: 'initialize'; name: string }) => void };
}) {
  const state = { counting: false, reads: 0, writes: 0 };
  type Output = { output: { ConsumedCapacity?: Parameters<typeof consumedUnits>[0] } };
  const middleware =
    (
      next: (args: { input: Record<string, unknown> }) => Promise<Output>,
      context: { commandName?: string },
    ) =>
    async (args: { input: Record<string, unknown> }) => {
      if (!state.counting) return next(args);
      const result = await next({ ...args, input: { ...args.input, ReturnConsumedCapacity: 'TOTAL' } });
      const used = consumedUnits(result.output.ConsumedCapacity);
      if (isReadOperation((context.commandName ?? '').replace(/Command$/, ''))) state.reads += used;
      else state.writes += used;
      return result;
    };
  client.middlewareStack.add(middleware as never, { step: 'initialize', name: 'benchCapacity' });
  return {
    get reads() {
      return state.reads;
    },
    get writes() {
      return state.writes;
    },
    reset(counting: boolean) {
      if (counting) Object.assign(state, { reads: 0, writes: 0 });
      state.counting = counting;
    },
  };
}
