/**
 * Node agent benchmark: the shipped bundle (dist/agent.mjs, rebuilt first) runs as its own
 * process against an in-memory fake Exchange, exactly as on a device with only Node 22: started
 * as `node dist/agent.mjs`, it re-executes itself with its V8 options (agent/relaunch.ts; same
 * pid), and the command line it ends up running is read back and reported with the figures.
 * Reports its resident memory after start and after 10,000 events, and requests/s with p50/p99
 * latency (10 concurrent clients, autocannon) for GET /node, GET /node/policy, GET /eventlog
 * with a selector that scans all 10,000 events, GET /service with 10 configured services, and
 * GET /trust?verbose=true with 50 trusted certificates (made by openssl, parsed with node:crypto).
 *
 * `npx tsx bench/agent.ts` runs it alone; bench/run.ts calls runAgentBench().
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { createHttp } from '#lib/http-client';
import { makeCert, rsaKey } from '../agent/test-support/certs.ts';
import { startFakeExchange } from '../agent/test-support/fake-exchange.ts';
import { freePort, waitForPort } from '../scripts/local/ports.ts';

interface AgentLoadFigures {
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

/** Resident memory: total, private (anonymous) and file-backed (mostly the node binary's code, shared). */
export interface Rss {
  totalMb: number;
  anonMb: number;
  fileMb: number;
}

export interface AgentBenchFigures {
  /** The agent process's command line after it re-executed itself (what was measured). */
  commandLine: string;
  bundleBytes: number;
  rssAfterStart: Rss;
  rssAfter10kEvents: Rss;
  rssAfterLoad: Rss;
  eventCount: number;
  eventWritesPerSecond: number;
  /** Seconds of load per GET path. */
  durationSeconds: number;
  load: AgentLoadFigures[];
}

export const EVENTS = 10_000;
const SERVICES = 10;
const CERTIFICATES = 50;
const CONNECTIONS = 10;
/**
 * Two selectors over the 10,000+ events, each matching the one registration event: equality on
 * the event code (its index) and a substring of the message (the messages' trigram index).
 */
const SELECTORS = [
  '/eventlog?event_code=start_node_configuration_registration',
  '/eventlog?source_type=node&message=~registration',
];

/** Targets (issue 4): resident memory, and the p99 latency of the paths that have one. */
export const TARGETS = {
  rssMb: 80,
  p99Ms: new Map<string, number>([['/node', 10], ...SELECTORS.map((path) => [path, 25] as const)]),
};

export async function runAgentBench(options: { durationSeconds?: number } = {}): Promise<AgentBenchFigures> {
  const duration = options.durationSeconds ?? Number(process.env.AGENT_BENCH_SECONDS ?? 5);
  const build = spawnSync('npm', ['run', '--silent', 'build:agent'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build:agent failed');

  const fake = await startFakeExchange();
  fake.addNode('bench', 'node1', 'bench-token');
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/agent.mjs'], {
    env: {
      PATH: process.env.PATH,
      HZN_AGENT_PORT: String(port),
      HZN_AGENT_DATA_DIR: dataDir,
      HZN_EXCHANGE_URL: fake.url,
      HZN_AGENT_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(port, 15_000);
    const registered = await call(`${base}/node`, 'POST', {
      id: 'node1',
      organization: 'bench',
      token: 'bench-token',
    });
    if (registered.status !== 201)
      throw new Error(`registration failed: ${registered.status} ${registered.text}`);
    await settle();
    const rssAfterStart = rss(child.pid);
    const [, ...args] = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const commandLine = ['node', ...args].join(' ').replaceAll(`${process.cwd()}/`, '');

    // 10,000 events written through the API: each DELETE of an empty user input logs one.
    const writes = await autocannon({
      url: `${base}/node/userinput`,
      method: 'DELETE',
      connections: CONNECTIONS,
      amount: EVENTS,
    });
    const eventCount = (JSON.parse((await call(`${base}/eventlog`, 'GET')).text) as unknown[]).length;
    await settle();
    const rssAfter10kEvents = rss(child.pid);

    await configureServices(base);
    await trustCertificates(base);
    const load: AgentLoadFigures[] = [];
    for (const path of ['/node', '/node/policy', ...SELECTORS, '/service', '/trust?verbose=true']) {
      const result = await autocannon({ url: `${base}${path}`, connections: CONNECTIONS, duration });
      load.push({
        path,
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
      });
    }
    const figures: AgentBenchFigures = {
      commandLine,
      bundleBytes: statSync('dist/agent.mjs').size,
      rssAfterStart,
      rssAfter10kEvents,
      rssAfterLoad: rss(child.pid),
      eventCount,
      eventWritesPerSecond: Math.round(writes.requests.average),
      durationSeconds: duration,
      load,
    };
    print(figures);
    return figures;
  } finally {
    http.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One request to the agent with node:http (the agent's own client), not fetch: fetch refuses the
 * WHATWG "bad ports" (4190, 6000, 10080, ...), and the agent may listen on any port.
 */
const http = createHttp(30_000);
function call(url: string, method: string, body?: unknown, type = 'application/json') {
  const text = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
  return http.send(method, new URL(url), text === undefined ? {} : { 'content-type': type }, text);
}

async function send(url: string, method: string, body: string, type = 'application/json') {
  const res = await call(url, method, body, type);
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
}

/** Services with user input and a registry credential each, as `hzn register -f` would configure them. */
async function configureServices(base: string): Promise<void> {
  for (let i = 0; i < SERVICES; i++) {
    const attributes = [
      { type: 'UserInputAttributes', label: 'vars', mappings: { VAR: `value-${i}`, COUNT: i } },
      {
        type: 'DockerRegistryAuthAttributes',
        label: 'pull',
        mappings: { auths: [{ registry: `registry${i}.example`, token: `token-${i}` }] },
      },
    ];
    await send(`${base}/service/config`, 'POST', JSON.stringify({ url: `bench.service.${i}`, attributes }));
  }
}

/** 50 signing certificates (one key, so making them takes about a second). */
async function trustCertificates(base: string): Promise<void> {
  const key = rsaKey();
  for (let i = 0; i < CERTIFICATES; i++) {
    const { cert } = makeCert({ key, subject: `/CN=signer${i}.example/O=Bench/C=US` });
    await send(`${base}/trust/signer${i}.pem`, 'PUT', cert, 'text/plain');
  }
}

/** Resident memory of a process in MB (Linux /proc). */
function rss(pid: number | undefined): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => {
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return Math.round((kb / 1024) * 10) / 10;
  };
  return { totalMb: mb('VmRSS'), anonMb: mb('RssAnon'), fileMb: mb('RssFile') };
}

const show = (r: Rss) => `${r.totalMb} MB (private ${r.anonMb} MB + node binary/shared files ${r.fileMb} MB)`;

/** Lets the agent finish background work (initial sync, GC) before a memory reading. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

function print(f: AgentBenchFigures): void {
  console.log('\nNode agent (dist/agent.mjs, one process, fake Exchange)');
  console.log(`  running as:                    ${f.commandLine}`);
  console.log(`  RSS after start:              ${show(f.rssAfterStart)}`);
  console.log(`  RSS after ${f.eventCount} events:      ${show(f.rssAfter10kEvents)}`);
  console.log(`  RSS after the GET load below:  ${show(f.rssAfterLoad)}`);
  console.log(`  event-writing requests:        ${f.eventWritesPerSecond} req/s`);
  console.log(
    `  ${'GET (10 connections)'.padEnd(68)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`,
  );
  for (const l of f.load) {
    console.log(
      `  ${l.path.padEnd(68)} ${String(l.requestsPerSecond).padStart(7)} ${String(l.p50Ms).padStart(7)} ${String(l.p99Ms).padStart(7)}${l.non2xx ? `  (${l.non2xx} non-2xx!)` : ''}`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAgentBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
