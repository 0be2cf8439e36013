import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest } from '../../../scripts/local/http-request.ts';
import { startObjectStore } from '../../../scripts/local/object-store.ts';
import { freePort } from '../../../scripts/local/ports.ts';
import { startSignalsStream } from '../../../scripts/local/signals-stream.ts';
import type { StreamReader } from '../../../scripts/local/stream-reader.ts';

/**
 * serverless-offline as a child process, without vitest: the e2e tests and the benchmark both use
 * it. The child gets its own process group so that stopping it also stops what it spawned.
 */
export interface OfflineOptions {
  dynamoEndpoint: string;
  table: string;
  rootPassword: string;
  /** More environment for the functions (e.g. EXCHANGE_CONFIG_FILE). */
  env?: Record<string, string>;
  /** Another serverless config in the project root instead of serverless.yml (the benchmark's floor). */
  config?: string;
  /**
   * A work folder (relative to the project root) where every function is already built
   * (scripts/exchange-functions-build.ts): the server runs those bundles and builds nothing. Without
   * it, the server builds its own into a fresh folder and removes it when it stops.
   */
  prebuiltDir?: string;
  startTimeoutMs?: number;
  /** The signal channel's port (docs/signals.md); a free one by default. */
  websocketPort?: number;
  /**
   * The API's and the Lambda API's ports; free ones by default. A test that stops the server and
   * starts it again gives the same ones, so that its agents find it where it was.
   */
  httpPort?: number;
  lambdaPort?: number;
  /**
   * Where the signal dispatcher's stream reader reads DynamoDB Local's stream: `dynamoEndpoint` by
   * default. A benchmark whose `dynamoEndpoint` is a counting proxy gives DynamoDB Local itself,
   * as Lambda's reads of a stream are not billed.
   */
  streamsEndpoint?: string;
  /** Told everything the child prints, as it prints it (a shared server's log file). */
  onOutput?: (chunk: string) => void;
}

export interface OfflineServer {
  baseUrl: string;
  /** The serverless-offline process, which also runs every handler (`useInProcess`). */
  pid: number | undefined;
  /** The signal channel's address (`ws://127.0.0.1:<port>`), as POST /changes announces it by default. */
  signalsUrl: string;
  /** serverless-offline's Lambda invoke API (`http://127.0.0.1:<port>`): the in-stack agbot's stream reader calls it. */
  lambdaUrl: string;
  /**
   * The signal dispatcher's stream reader (scripts/local/signals-stream.ts), run beside every
   * server with a signal channel (EXCHANGE_SIGNALS_URL not emptied) on the stack's own functions
   * (no `config`); stopped by `stop()`.
   */
  signalsStream: StreamReader | undefined;
  /** Everything the child printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const projectRoot = resolve(dirname(require.resolve('../../../package.json')));
const serverlessBin = require.resolve('serverless/bin/serverless.js');

export async function startOffline(options: OfflineOptions): Promise<OfflineServer> {
  const httpPort = options.httpPort ?? (await freePort());
  let lambdaPort = options.lambdaPort ?? (await freePort());
  while (!options.lambdaPort && lambdaPort === httpPort) lambdaPort = await freePort();
  let websocketPort = options.websocketPort ?? (await freePort());
  while (!options.websocketPort && (websocketPort === httpPort || websocketPort === lambdaPort))
    websocketPort = await freePort();
  const signalsUrl = `ws://127.0.0.1:${websocketPort}`;
  // A build folder of its own (under the git-ignored .esbuild/) unless given a finished build:
  // concurrent servers never write into the same folder.
  const buildDir =
    options.prebuiltDir ?? join('.esbuild', `offline-${process.pid}-${randomBytes(4).toString('hex')}`);
  const args = ['offline', 'start', '--httpPort', String(httpPort), '--lambdaPort', String(lambdaPort)];
  args.push('--websocketPort', String(websocketPort));
  if (options.config) args.push('--config', options.config);
  // The object store's data in a temporary folder (docs/nmp.md#the-object-store), as npm start keeps it.
  const objectsDir = mkdtempSync(join(tmpdir(), 'offline-objects-'));
  const objects = await startObjectStore({ dir: objectsDir });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EXCHANGE_OBJECTS_URL: objects.url,
    EXCHANGE_OBJECTS_SECRET: objects.secret,
    EXCHANGE_SIGNALS_URL: signalsUrl,
    // The Exchange the in-stack agbot calls (docs/agbot.md, "In the stack"). Its schedule runs
    // in every server; its rounds only where a test asks for them (EXCHANGE_AGBOT: 'in-stack').
    EXCHANGE_API_URL: `http://127.0.0.1:${httpPort}/v1`,
    EXCHANGE_AGBOT: 'off',
    ...options.env,
    DYNAMODB_ENDPOINT: options.dynamoEndpoint,
    EXCHANGE_TABLE: options.table,
    EXCHANGE_ROOT_PW: options.rootPassword,
    AWS_REGION: 'local',
    EXCHANGE_BUILD_DIR: buildDir,
    EXCHANGE_PREBUILT: options.prebuiltDir ? '1' : '',
    SLS_TELEMETRY_DISABLED: '1',
    SLS_NOTIFICATIONS_MODE: 'off',
  };
  const child = spawn(process.execPath, [serverlessBin, ...args, '--host', '127.0.0.1'], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    options.onOutput?.(chunk.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let stopping = false;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      // A server that dies under a test leaves only "other side closed" behind: say why it died.
      if (!stopping)
        process.stderr.write(
          `serverless offline (pid ${child.pid}) exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${output.slice(-6000)}\n`,
        );
      done();
    }),
  );
  // If this process ends without stop() (a killed test worker), take the server group down too.
  const killOnExit = () => {
    stopping = true;
    signalGroup(child, 'SIGTERM');
  };
  process.once('exit', killOnExit);
  const server: OfflineServer = {
    baseUrl: `http://127.0.0.1:${httpPort}`,
    pid: child.pid,
    signalsUrl,
    lambdaUrl: `http://127.0.0.1:${lambdaPort}`,
    signalsStream: undefined,
    output: () => output,
    stop: async () => {
      stopping = true;
      process.removeListener('exit', killOnExit);
      await server.signalsStream?.stop();
      await stopGroup(child, exited);
      await objects.stop();
      rmSync(objectsDir, { recursive: true, force: true });
      if (!options.prebuiltDir) rmSync(join(projectRoot, buildDir), { recursive: true, force: true });
    },
  };
  try {
    await waitUntilAnswering(server.baseUrl, exited, options.startTimeoutMs ?? 180_000);
    // Its log lines join the server's output (failure messages print it).
    if (env.EXCHANGE_SIGNALS_URL && !options.config)
      server.signalsStream = await startSignalsStream({
        dynamoEndpoint: options.streamsEndpoint ?? options.dynamoEndpoint,
        table: options.table,
        lambdaUrl: server.lambdaUrl,
        log: (line) => collect(Buffer.from(`${line}\n`)),
      });
  } catch (error) {
    await server.stop();
    throw new Error(`serverless offline did not start: ${(error as Error).message}\n${output.slice(-3000)}`);
  }
  return server;
}

async function waitUntilAnswering(baseUrl: string, exited: Promise<void>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error('the process exited');
    try {
      const response = await httpRequest(`${baseUrl}/v1/admin/version`, { timeoutMs: 5000 });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`no answer from ${baseUrl}/v1/admin/version within ${timeoutMs} ms`);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to the whole group, SIGKILL if it lingers. */
async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  signalGroup(child, 'SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
  if (!done) {
    signalGroup(child, 'SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}
