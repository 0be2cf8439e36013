/**
 * Fleet economics (issue 24): `npm run bench:fleet`. Starts DynamoDB Local and the Exchange
 * (serverless-offline), each behind a counting proxy (bench/fleet-proxies.ts), registers N real
 * agents (`dist/agent.mjs`, default settings: adaptive intervals; a node policy; configured) and,
 * once they have settled, lets them idle for a window. Prints per node per minute: HTTP requests by
 * route, DynamoDB calls and capacity units by operation; then the monthly cost per 1,000 nodes at
 * list prices (bench/fleet-prices.ts). No WebSocket channel exists yet: its figures are 0.
 *
 * FLEET_NODES (5), FLEET_SETTLE_SECONDS (300: the adaptive interval reaches its 120 s maximum
 * after 20+40+…+100 s), FLEET_WINDOW_SECONDS (600); FLEET_DEBUG=1 prints each counted DynamoDB
 * call's key values. Needs `npm run build:agent` first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '../scripts/local/ports.ts';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import { costPerThousandNodeMonths, PRICES_AS_OF } from './fleet-prices.ts';
import { dynamoProxy, exchangeProxy, newCounts } from './fleet-proxies.ts';
import { median } from './stats.ts';

const ORG = 'fleet';
const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const NODES = env('FLEET_NODES', 5);
const SETTLE_S = env('FLEET_SETTLE_SECONDS', 300);
const WINDOW_S = env('FLEET_WINDOW_SECONDS', 600);
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
  const db = await dynamoProxy(dynamo.endpoint, dynamoCounts);
  const { createTableIfMissing } = await import('#tables/create-table');
  const { bootstrap } = await import('#tables/bootstrap');
  const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
  const { httpClient } = await import('../test/e2e/support/http.ts');
  const { createOrg, createUser, expectStatus } = await import('../test/e2e/support/world.ts');
  const agents: ChildProcess[] = [];
  const dirs: string[] = [];
  let stopOffline: (() => Promise<void>) | undefined;
  let closeProxy: (() => void) | undefined;
  try {
    await createTableIfMissing(BENCH_TABLE);
    await bootstrap();
    const server = await startOffline({
      dynamoEndpoint: db.url,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
    });
    stopOffline = server.stop;
    const exchange = await exchangeProxy(server.baseUrl, httpCounts);
    closeProxy = exchange.close;
    const http = httpClient(server.baseUrl);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    await createOrg({ http, root }, ORG);
    const owner = await createUser({ http, root }, ORG, 'owner');
    console.log(
      `fleet: ${NODES} agents (dist/agent.mjs, default settings), settle ${SETTLE_S} s, window ${WINDOW_S} s`,
    );
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
          DOCKER_HOST: 'unix:///nonexistent/docker.sock',
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
        properties: [{ name: 'purpose', value: 'fleet' }],
        constraints: [],
      });
      await call('PUT', '/node/configstate', { state: 'configured' });
    }
    console.log(`settling ${SETTLE_S} s…`);
    await sleep(SETTLE_S * 1000);
    httpCounts.counting = true;
    dynamoCounts.counting = true;
    console.log(`measuring ${WINDOW_S} s…`);
    await sleep(WINDOW_S * 1000);
    httpCounts.counting = false;
    dynamoCounts.counting = false;
    report(httpCounts, dynamoCounts);
  } finally {
    for (const agent of agents) agent.kill('SIGTERM');
    closeProxy?.();
    await stopOffline?.();
    db.close();
    await dynamo.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

function report(http: ReturnType<typeof newCounts>, dynamo: ReturnType<typeof newCounts>) {
  const perNodeMinute = (value: number) => value / NODES / (WINDOW_S / 60);
  const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  console.log('\nper node per minute');
  console.log('HTTP requests by route:');
  for (const [route, count] of [...http.calls].sort())
    console.log(`  ${route}: ${round(perNodeMinute(count))}`);
  console.log(`  all: ${round(perNodeMinute(sum(http.calls)))}`);
  console.log('WebSocket connection-minutes: 0, messages: 0 (no signal channel yet)');
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
  const cost = costPerThousandNodeMonths({
    httpRequests: perNodeMinute(sum(http.calls)),
    websocketConnectionMinutes: 0,
    websocketMessages: 0,
    lambdaSecondsPerRequest: lambdaSeconds,
    lambdaMemoryGb: memoryGb(),
    readUnits,
    writeUnits,
  });
  console.log(
    `\nmonthly cost per 1,000 idle nodes (list prices of ${PRICES_AS_OF}; Lambda duration: median request time through serverless-offline, ${round(lambdaSeconds * 1000, 1)} ms at ${memoryGb()} GB, an upper bound):`,
  );
  for (const [item, dollars] of Object.entries(cost.items)) console.log(`  ${item}: $${dollars.toFixed(2)}`);
  console.log(`  total: $${cost.total.toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
