/**
 * Fleet economics (issue 24): `npm run bench:fleet`. Starts DynamoDB Local and the Exchange
 * (serverless-offline), each behind a counting proxy (bench/fleet-proxies.ts), registers N real
 * agents (`dist/agent.mjs`, default settings: adaptive intervals; a node policy; configured) and,
 * once they have settled, lets them idle for a window. Prints per node per minute: HTTP requests by
 * route, the signal channel's connection-minutes and messages (a counting proxy in front of its
 * WebSocket port, announced to the agents instead of it), DynamoDB calls and capacity units by
 * operation; then the monthly cost per 1,000 nodes at list prices (bench/fleet-prices.ts). Then,
 * with the nodes idle since the start, the time from adding a deployment policy to the proposal
 * at the node and to its container running (bench/fleet-latency.ts; the container only with an
 * engine at DOCKER_HOST), one run per node, the median.
 *
 * It also prints the signal dispatcher's invocations in the window (docs/signals.md: an idle
 * fleet records no change rows, so none).
 *
 * FLEET_NODES (5), FLEET_SETTLE_SECONDS (300: the nodes are idle 5 minutes and more),
 * FLEET_WINDOW_SECONDS (600); FLEET_SIGNALS=off runs the agents without the channel (polling
 * alone); FLEET_DEBUG=1 prints each counted DynamoDB call's key values. Needs `npm run build:agent`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNALS_FUNCTION } from '#functions/signals/function';
import { busyboxTestImage, reachableEngine } from '../agent/test-support/engine.ts';
import { freePort, waitForPort } from '../scripts/local/ports.ts';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import type { IdleNode } from './fleet-latency.ts';
import { costPerThousandNodeMonths, PRICES_AS_OF } from './fleet-prices.ts';
import {
  connectionMs,
  dynamoProxy,
  exchangeProxy,
  newCounts,
  newSocketCounts,
  type SocketCounts,
  socketProxy,
} from './fleet-proxies.ts';
import { median } from './stats.ts';

const ORG = 'fleet';
const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const NODES = env('FLEET_NODES', 5);
const SETTLE_S = env('FLEET_SETTLE_SECONDS', 300);
const WINDOW_S = env('FLEET_WINDOW_SECONDS', 600);
const SIGNALS = process.env.FLEET_SIGNALS !== 'off';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Lambda memory of the stack (serverless.yml `provider.memorySize`). */
const memoryGb = () =>
  Number(readFileSync('serverless.yml', 'utf8').match(/^\s+memorySize:\s*(\d+)/m)?.[1] ?? 1024) / 1024;

async function main() {
  if (!existsSync('dist/agent.mjs'))
    throw new Error('dist/agent.mjs is missing: run `npm run build:agent` first');
  const dynamo = await startBenchDynamo();
  const dynamoCounts = newCounts();
  const httpCounts = newCounts();
  const socketCounts = newSocketCounts();
  const db = await dynamoProxy(dynamo.endpoint, dynamoCounts);
  // Modules that reach the table are imported once DynamoDB Local's address is set.
  const { createTableIfMissing } = await import('#tables/create-table');
  const { measureProposalLatency, medianMs } = await import('./fleet-latency.ts');
  const { bootstrap } = await import('#tables/bootstrap');
  const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
  const { httpClient } = await import('../test/support/http.ts');
  const { createOrg, createUser, expectStatus } = await import('../test/support/world.ts');
  const agents: ChildProcess[] = [];
  const dirs: string[] = [];
  let stopOffline: (() => Promise<void>) | undefined;
  let closeProxy: (() => void) | undefined;
  let closeSocketProxy: (() => void) | undefined;
  try {
    await createTableIfMissing(BENCH_TABLE);
    await bootstrap();
    const websocketPort = await freePort();
    const sockets = await socketProxy(websocketPort, socketCounts);
    closeSocketProxy = sockets.close;
    const server = await startOffline({
      dynamoEndpoint: db.url,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
      websocketPort,
      env: { EXCHANGE_SIGNALS_URL: `ws://127.0.0.1:${sockets.port}` },
      // The signal dispatcher's stream reads are Lambda's, not billed: not through the counting proxy.
      streamsEndpoint: dynamo.endpoint,
    });
    stopOffline = server.stop;
    const exchange = await exchangeProxy(server.baseUrl, httpCounts);
    closeProxy = exchange.close;
    const http = httpClient(server.baseUrl);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    await createOrg({ http, root }, ORG);
    const owner = await createUser({ http, root }, ORG, 'owner');
    console.log(
      `fleet: ${NODES} agents (dist/agent.mjs, default settings, signal channel ${SIGNALS ? 'on' : 'off'}), settle ${SETTLE_S} s, window ${WINDOW_S} s`,
    );
    const idle: IdleNode[] = [];
    for (let i = 1; i <= NODES; i++) {
      const id = `node${i}`;
      const token = `${id}-token-0123456789`;
      const body = { name: id, token, pattern: '', publicKey: '', arch: 'amd64' };
      expectStatus(await http('PUT', `/v1/orgs/${ORG}/nodes/${id}`, { auth: owner, body }), 201, 'PUT node');
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
      dirs.push(dataDir);
      const child = spawn(process.execPath, ['dist/agent.mjs'], {
        env: {
          PATH: process.env.PATH,
          HZN_AGENT_PORT: String(port),
          HZN_EXCHANGE_URL: `${exchange.url}/v1`,
          HZN_AGENT_DATA_DIR: dataDir,
          HZN_AGENT_LOG_LEVEL: 'error',
          HZN_AGENT_SIGNALS: SIGNALS ? 'on' : 'off',
          DOCKER_HOST: process.env.DOCKER_HOST || 'unix:///nonexistent/docker.sock',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      agents.push(child);
      await waitForPort(port, 20_000);
      const call = async (method: string, path: string, payload: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method,
          body: JSON.stringify(payload),
          headers: { 'content-type': 'application/json' },
        });
        if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
      };
      await call('POST', '/node', { id, organization: ORG, token, name: id });
      await call('POST', '/node/policy', {
        properties: [
          { name: 'purpose', value: 'fleet' },
          { name: 'node', value: id },
        ],
        constraints: [],
      });
      await call('PUT', '/node/configstate', { state: 'configured' });
      idle.push({ id, port });
    }
    console.log(`settling ${SETTLE_S} s…`);
    await sleep(SETTLE_S * 1000);
    httpCounts.counting = true;
    dynamoCounts.counting = true;
    socketCounts.countingSince = performance.now();
    const dispatch = server.signalsStream;
    const dispatchedBefore = { invocations: dispatch?.invocations() ?? 0, rows: dispatch?.records() ?? 0 };
    console.log(`measuring ${WINDOW_S} s…`);
    await sleep(WINDOW_S * 1000);
    httpCounts.counting = false;
    dynamoCounts.counting = false;
    const socketMs = connectionMs(socketCounts);
    socketCounts.countingSince = undefined;
    report(httpCounts, dynamoCounts, socketCounts, socketMs);
    // An idle node's writes (heartbeats, polls) record no change rows: the dispatcher should not run.
    console.log(
      `signal dispatcher (on the table's stream) in the window: ${(dispatch?.invocations() ?? 0) - dispatchedBefore.invocations} invocations, ${(dispatch?.records() ?? 0) - dispatchedBefore.rows} change rows`,
    );

    console.log(`\npolicy added → at a node idle ${SETTLE_S + WINDOW_S} s and more (one run per node):`);
    const engine = process.env.DOCKER_HOST ? await reachableEngine() : undefined;
    const latency = await measureProposalLatency({
      http,
      baseUrl: exchange.url,
      org: ORG,
      root,
      nodes: idle,
      image: engine ? await busyboxTestImage() : 'busybox:absent',
      engine,
    });
    console.log(
      `  proposal at the node, median of ${latency.proposalMs.length}: ${medianMs(latency.proposalMs)} ms`,
    );
    console.log(
      engine
        ? `  container running, median of ${latency.runningMs.length}: ${medianMs(latency.runningMs)} ms`
        : '  container running: not measured (no container engine at DOCKER_HOST)',
    );
  } finally {
    for (const agent of agents) agent.kill('SIGTERM');
    closeProxy?.();
    closeSocketProxy?.();
    await stopOffline?.();
    db.close();
    await dynamo.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

function report(
  http: ReturnType<typeof newCounts>,
  dynamo: ReturnType<typeof newCounts>,
  sockets: SocketCounts,
  socketMs: number,
) {
  const perNodeMinute = (value: number) => value / NODES / (WINDOW_S / 60);
  const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  console.log('\nper node per minute');
  console.log('HTTP requests by route:');
  for (const [route, count] of [...http.calls].sort())
    console.log(`  ${route}: ${round(perNodeMinute(count))}`);
  console.log(`  all: ${round(perNodeMinute(sum(http.calls)))}`);
  const websocketMessages = perNodeMinute(sockets.clientMessages + sockets.serverMessages);
  // Invocations of the signal function: each client message, connect and disconnect.
  const websocketInvocations = perNodeMinute(sockets.clientMessages + sockets.connects + sockets.disconnects);
  console.log(
    `WebSocket: ${round(perNodeMinute(socketMs / 60_000))} connection-minutes, ${round(websocketMessages)} messages ` +
      `(${sockets.clientMessages} keepalives, ${sockets.serverMessages} "look now" in all), ` +
      `${sockets.connects} connects, ${sockets.disconnects} disconnects`,
  );
  console.log('DynamoDB calls / read units / write units by operation:');
  for (const [op, count] of [...dynamo.calls].sort())
    console.log(
      `  ${op}: ${round(perNodeMinute(count))} calls, ${round(perNodeMinute(dynamo.readUnits.get(op) ?? 0))} RU, ${round(perNodeMinute(dynamo.writeUnits.get(op) ?? 0))} WU`,
    );
  const readUnits = perNodeMinute(sum(dynamo.readUnits));
  const writeUnits = perNodeMinute(sum(dynamo.writeUnits));
  console.log(
    `  all: ${round(perNodeMinute(sum(dynamo.calls)))} calls, ${round(readUnits)} RU, ${round(writeUnits)} WU`,
  );
  const lambdaSeconds = http.durationsMs.length > 0 ? median(http.durationsMs) / 1000 : 0;
  // What a window shorter than an hour cannot sample: with the channel open, each node's hourly
  // safety poll (1 request; 1 write unit, 2 read units) and, every 2 hours (API Gateway's limit),
  // a reconnect ($disconnect and $connect: 2 invocations, 6 write units, 1 read unit).
  const unsampled = SIGNALS && WINDOW_S < 3600;
  const hourlyPoll = unsampled ? 1 / 60 : 0;
  const reconnect = unsampled ? 1 / 120 : 0;
  if (unsampled)
    console.log(
      `added, not sampled by a ${WINDOW_S} s window: ${round(hourlyPoll)} polls and ${round(reconnect)} reconnects per node per minute`,
    );
  const cost = costPerThousandNodeMonths({
    httpRequests: perNodeMinute(sum(http.calls)) + hourlyPoll,
    websocketConnectionMinutes: perNodeMinute(socketMs / 60_000),
    websocketMessages,
    websocketInvocations: websocketInvocations + 2 * reconnect,
    lambdaSecondsPerRequest: lambdaSeconds,
    lambdaMemoryGb: memoryGb(),
    signalsMemoryGb: SIGNALS_FUNCTION.memorySize / 1024,
    readUnits: readUnits + 2 * hourlyPoll + reconnect,
    writeUnits: writeUnits + hourlyPoll + 6 * reconnect,
  });
  console.log(
    `\nmonthly cost per 1,000 idle nodes (list prices of ${PRICES_AS_OF}; Lambda duration: median time of every request through serverless-offline (registration included), ${round(lambdaSeconds * 1000, 1)} ms at ${memoryGb()} GB, an upper bound):`,
  );
  for (const [item, dollars] of Object.entries(cost.items)) console.log(`  ${item}: $${dollars.toFixed(2)}`);
  console.log(`  total: $${cost.total.toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
