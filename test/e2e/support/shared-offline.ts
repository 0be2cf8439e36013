import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, inject } from 'vitest';
import { bootstrap } from '#tables/bootstrap';
import { createTableIfMissing } from '#tables/create-table';
import { type Http, httpClient } from '#test/support/http';
import { checkedHttp } from '#test/support/our-openapi';
import { httpRequest } from '../../../scripts/local/http-request.ts';
import { type E2eServer, e2eServer } from './offline.ts';
import { type HostAddresses, type SharedOffline, stopHost } from './offline-hosts.ts';
import type { OfflineOptions } from './serverless-offline.ts';

/**
 * One serverless-offline per vitest worker, shared by the e2e files that need nothing of a server
 * but its API (issue 33: a server's start is 10–20 s of a file's hooks). The first such file a
 * worker runs starts it (offline-host.ts, a process of its own, so it outlives the file); the
 * following ones find it by the worker's pool id. Its table is the worker's too, and holds what
 * earlier files wrote: a file that shares it creates every org, user and node under a fresh id and
 * never asserts on the whole hub (GET /orgs, the feed of every org, hub counts). A file that needs
 * settings, a quiet hub, its own stream reader or to stop the server keeps `useOffline`.
 * shared-offline-setup.ts stops every host when the run ends.
 */
const hostScript = join(dirname(fileURLToPath(import.meta.url)), 'offline-host.ts');
const rootPassword = process.env.EXCHANGE_ROOT_PW ?? 'root-test-password';

export function useSharedOffline(): E2eServer {
  const shared = inject('sharedOffline');
  const pool = process.env.VITEST_POOL_ID ?? '1';
  const table = `${shared.tablePrefix}-${pool}`;
  // Fixtures written in-process (test/support/identities.ts) land in the server's table.
  process.env.EXCHANGE_TABLE = table;
  const logFile = join(shared.dir, `pool-${pool}.log`);
  let addresses: HostAddresses | undefined;
  let client: Http | undefined;
  beforeAll(async () => {
    await createTableIfMissing(table);
    await bootstrap();
    addresses = await workersHost(shared, pool, table, logFile);
    // Every 2xx answer is checked against our OpenAPI document and upstream's.
    client = checkedHttp(httpClient(addresses.baseUrl));
  });
  // No afterAll: the server and its table serve the worker's next files.
  return e2eServer({
    addresses: () => addresses,
    client: () => client,
    signalsStream: () => undefined,
    output: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-20_000) : ''),
    rootPassword,
  });
}

/** The worker's host: the running one if it still answers, else a new one. */
async function workersHost(
  shared: SharedOffline,
  pool: string,
  table: string,
  logFile: string,
): Promise<HostAddresses> {
  const readyFile = join(shared.dir, `pool-${pool}.json`);
  if (existsSync(readyFile)) {
    const running = JSON.parse(readFileSync(readyFile, 'utf8')) as HostAddresses;
    if (await answers(running.baseUrl)) return running;
    // Gone (a crash): start another in its place.
    stopHost(running);
    rmSync(readyFile, { force: true });
  }
  const options: OfflineOptions = {
    dynamoEndpoint: inject('dynamoEndpoint'),
    table,
    rootPassword,
    prebuiltDir: inject('exchangeBuildDir'),
    // The secrets' master key in the run's folder, not the project's .data/.
    env: { EXCHANGE_SECRETS_MASTER_KEY_FILE: join(shared.dir, 'secrets-master-key') },
  };
  const log = openSync(logFile, 'a');
  const host = spawn(process.execPath, ['--import', 'tsx', hostScript, readyFile], {
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      OFFLINE_HOST_OPTIONS: JSON.stringify(options),
      OFFLINE_HOST_RUN_PID: String(shared.runPid),
    },
  });
  closeSync(log);
  host.unref();
  let exited = false;
  host.once('exit', () => {
    exited = true;
  });
  // The host's own bound (startOffline's 180 s) ends it first; this one only bounds a hung host.
  const deadline = Date.now() + 240_000;
  while (!existsSync(readyFile)) {
    if (exited || Date.now() > deadline)
      throw new Error(
        `the shared serverless offline did not start; its log:\n${readFileSync(logFile, 'utf8').slice(-3000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return JSON.parse(readFileSync(readyFile, 'utf8')) as HostAddresses;
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    return (await httpRequest(`${baseUrl}/v1/admin/version`, { timeoutMs: 10_000 })).status === 200;
  } catch {
    return false;
  }
}
