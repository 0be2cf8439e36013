import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../scripts/local/ports.ts';
import { startOffline } from '../../test/e2e/support/serverless-offline.ts';
import { load } from '../http-load.ts';
import type { Credentials } from '../in-process.ts';
import { cpuPerRequest } from '../process-cpu.ts';
import { writeFloorConfig } from './serverless-config.ts';

/**
 * The floors GET node over HTTP is compared with (bench/floor/get-item-function.ts: only the
 * GetItem), each measured like GET node (warm-up, then the same load with the CPU of each process):
 * behind serverless-offline, the best any handler can do on the decided local stack; behind a bare
 * node:http server, what HTTP itself costs.
 */
export interface FloorRate {
  requestsPerSecond: number;
  /** CPU ms per request: `offline` is the HTTP server process (serverless-offline or node:http). */
  cpu: Record<string, number | undefined>;
}

export interface FloorFigures {
  offline: FloorRate;
  nodeHttp: FloorRate;
}

interface FloorOptions {
  root: string;
  dynamo: { endpoint: string; pid: number | undefined };
  table: string;
  rootPassword: string;
  auth: Credentials;
  warmUpSeconds: number;
  seconds: number;
}

async function measure(
  baseUrl: string,
  serverPid: number | undefined,
  options: FloorOptions,
): Promise<FloorRate> {
  await load(baseUrl, options.auth, 'GET', options.warmUpSeconds);
  const pids = { offline: serverPid, dynamo: options.dynamo.pid, bench: process.pid };
  const { result, cpuMsPerRequest } = await cpuPerRequest(pids, async () => {
    const loaded = await load(baseUrl, options.auth, 'GET', options.seconds);
    return { result: loaded, requests: loaded.requests };
  });
  return { requestsPerSecond: result.requestsPerSecond, cpu: cpuMsPerRequest };
}

async function offlineFloor(options: FloorOptions): Promise<FloorRate> {
  const config = writeFloorConfig(options.root);
  try {
    const offline = await startOffline({
      dynamoEndpoint: options.dynamo.endpoint,
      table: options.table,
      rootPassword: options.rootPassword,
      config: config.file,
    });
    try {
      return await measure(offline.baseUrl, offline.pid, options);
    } finally {
      await offline.stop();
    }
  } finally {
    config.remove();
  }
}

function startNodeHttp(root: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench', 'floor', 'node-http-server.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the node:http floor server did not start in 30 s')),
      30_000,
    );
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the node:http floor server exited (${code})`));
    });
  });
}

async function nodeHttpFloor(options: FloorOptions): Promise<FloorRate> {
  const port = await freePort();
  const server = await startNodeHttp(options.root, port);
  try {
    return await measure(`http://127.0.0.1:${port}`, server.pid, options);
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((done) => server.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
  }
}

export async function measureFloors(options: FloorOptions): Promise<FloorFigures> {
  return { offline: await offlineFloor(options), nodeHttp: await nodeHttpFloor(options) };
}
