import { startFloors } from './floor/servers.ts';
import { CONNECTIONS, type LoadResult, load, loadVersion } from './http-load.ts';
import { type Credentials, rawGetRate } from './in-process.ts';
import { cpuPerRequest } from './process-cpu.ts';

/**
 * GET node over HTTP against its limits, in interleaved rounds so that each ratio compares loads
 * measured a few seconds apart (this machine's speed drifts by more than the ratios between
 * phases): the no-DynamoDB endpoint, GET node, its one GetItem alone in a function behind
 * serverless-offline and behind node:http (bench/floor), and the raw GetItem. Each load also
 * records the CPU each process spent per request (bench/process-cpu.ts).
 */
export const LIMIT_LOADS = ['version', 'get', 'floorOffline', 'floorNodeHttp', 'raw'] as const;
export type LimitLoad = (typeof LIMIT_LOADS)[number];

interface LimitMeasure {
  requestsPerSecond: number;
  /** CPU ms per request: `server` is the HTTP server process (it runs the handler), absent for raw. */
  cpu: Record<string, number | undefined>;
}

export interface LimitFigures {
  rounds: Record<LimitLoad, LimitMeasure>[];
  seconds: number;
  connections: number;
}

interface LimitOptions {
  root: string;
  offline: { baseUrl: string; pid: number | undefined };
  dynamo: { endpoint: string; pid: number | undefined };
  table: string;
  rootPassword: string;
  auth: Credentials;
  node: string;
  rounds: number;
  seconds: number;
  warmUpSeconds: number;
}

export async function measureLimits(options: LimitOptions): Promise<LimitFigures> {
  const floors = await startFloors({
    root: options.root,
    dynamoEndpoint: options.dynamo.endpoint,
    table: options.table,
    rootPassword: options.rootPassword,
  });
  const { auth, seconds } = options;
  const http = (
    server: { baseUrl: string; pid: number | undefined },
    run: (s: number) => Promise<LoadResult>,
  ) => ({
    pid: server.pid,
    run: async (s: number) => {
      const result = await run(s);
      return { rate: result.requestsPerSecond, requests: result.requests };
    },
  });
  const loads: Record<
    LimitLoad,
    { pid: number | undefined; run(s: number): Promise<{ rate: number; requests: number }> }
  > = {
    version: http(options.offline, (s) => loadVersion(options.offline.baseUrl, auth, s)),
    get: http(options.offline, (s) => load(options.offline.baseUrl, auth, 'GET', s)),
    floorOffline: http(floors.offline, (s) => load(floors.offline.baseUrl, auth, 'GET', s)),
    floorNodeHttp: http(floors.nodeHttp, (s) => load(floors.nodeHttp.baseUrl, auth, 'GET', s)),
    raw: {
      pid: undefined,
      run: async (s) => {
        const rate = await rawGetRate(options.node, s, CONNECTIONS);
        return { rate, requests: Math.round(rate * s) };
      },
    },
  };
  try {
    for (const name of LIMIT_LOADS) await loads[name].run(options.warmUpSeconds);
    const rounds: LimitFigures['rounds'] = [];
    for (let round = 0; round < options.rounds; round++) {
      const measured: Partial<Record<LimitLoad, LimitMeasure>> = {};
      for (const name of LIMIT_LOADS) {
        const pids = { server: loads[name].pid, dynamo: options.dynamo.pid, bench: process.pid };
        const { result, cpuMsPerRequest } = await cpuPerRequest(pids, async () => {
          const loaded = await loads[name].run(seconds);
          return { result: loaded.rate, requests: loaded.requests };
        });
        measured[name] = { requestsPerSecond: result, cpu: cpuMsPerRequest };
      }
      rounds.push(measured as Record<LimitLoad, LimitMeasure>);
    }
    return { rounds, seconds, connections: CONNECTIONS };
  } finally {
    await floors.stop();
  }
}
