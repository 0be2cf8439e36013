/**
 * A serverless-offline server that outlives the test file that started it (shared-offline.ts):
 * `node --import tsx offline-host.ts <ready-file>`, its options in OFFLINE_HOST_OPTIONS (JSON of
 * OfflineOptions). It starts the server with everything that runs beside it (the object store, the
 * signal dispatcher's stream reader), writes the server's addresses to <ready-file> once it answers,
 * and stops it all on SIGTERM or SIGINT, or when the test run's main process (OFFLINE_HOST_RUN_PID)
 * is gone, so that a run killed without its teardown leaves nothing behind.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { type OfflineOptions, startOffline } from './serverless-offline.ts';

const readyFile = process.argv[2];
const runPid = Number(process.env.OFFLINE_HOST_RUN_PID);
if (!readyFile || !process.env.OFFLINE_HOST_OPTIONS || !runPid) {
  process.stderr.write(
    'usage: OFFLINE_HOST_OPTIONS=<json> OFFLINE_HOST_RUN_PID=<pid> offline-host.ts <ready-file>\n',
  );
  process.exit(2);
}
const options = JSON.parse(process.env.OFFLINE_HOST_OPTIONS) as OfflineOptions;
// The functions' environment is the host's: not the variables that launched it.
delete process.env.OFFLINE_HOST_OPTIONS;

// Its output goes to this host's stdout: the log file that the files sharing it read.
const server = await startOffline({ ...options, onOutput: (chunk) => process.stdout.write(chunk) });
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  clearInterval(watch);
  await server.stop();
  process.exit(code);
};
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

const runAlive = () => {
  try {
    process.kill(runPid, 0);
    return true;
  } catch {
    return false;
  }
};
const watch = setInterval(() => {
  if (!runAlive()) void stop(0);
}, 2000);

const ready = {
  hostPid: process.pid,
  serverPid: server.pid,
  baseUrl: server.baseUrl,
  signalsUrl: server.signalsUrl,
  lambdaUrl: server.lambdaUrl,
};
// Written whole or not at all: a reader never sees half a file.
writeFileSync(`${readyFile}.tmp`, JSON.stringify(ready));
renameSync(`${readyFile}.tmp`, readyFile);
