import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOrCreateMasterKey } from '#lib/secrets/local-key-provider';
import { buildConsole } from './build-console.ts';
import { buildFunctions } from './exchange-functions-build.ts';
import { startLocalAgbot } from './local/agbot.ts';
import { assertPortsFree } from './local/check-ports.ts';
import { prepareDataDir } from './local/data-dir.ts';
import { assertJava, LocalStackError, startDynamoDbLocal } from './local/dynamodb-local.ts';
import { startObjectStore } from './local/object-store.ts';
import { startOffline } from './local/offline.ts';
import { resolveRootPassword } from './local/root-password.ts';
import { readSettings } from './local/settings.ts';
import { startSignalsStream } from './local/signals-stream.ts';
import { prepareTable } from './local/table.ts';

/**
 * `npm start`: DynamoDB Local (data kept in the data dir; or the DynamoDB at
 * EXCHANGE_DYNAMODB_ENDPOINT, neither started nor stopped here), the table and bootstrap records,
 * the Exchange through serverless-offline with the reader of the table's stream that invokes its
 * signal dispatcher (docs/signals.md), then the agbot (unless EXCHANGE_AGBOT=off). Ctrl-C stops
 * everything it started.
 */
const stops: (() => Promise<void>)[] = [];
const aborted = new AbortController();
let startup: Promise<void> = Promise.resolve();
let stopping: Promise<never> | undefined;

function shutdown(code: number): Promise<never> {
  stopping ??= (async () => {
    aborted.abort();
    // Let the step in flight finish (or notice the abort) so that what it started gets stopped too.
    await startup.catch(() => undefined);
    // Newest first: the Exchange before the database it uses.
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (!stopping) console.log('\nStopping the local Exchange...');
    void shutdown(0);
  });
}

async function main(signal: AbortSignal): Promise<void> {
  const settings = readSettings();
  const external = settings.dynamoEndpoint;
  prepareDataDir(settings.dataDir, external ? undefined : settings.dynamoDir);
  if (!external) assertJava();
  await assertPortsFree([
    { port: settings.httpPort, label: 'EXCHANGE_PORT, the Exchange API', setting: 'EXCHANGE_PORT' },
    {
      port: settings.lambdaPort,
      label: "EXCHANGE_PORT + 1, serverless-offline's Lambda API",
      setting: 'EXCHANGE_PORT',
    },
    {
      port: settings.signalsPort,
      label: 'EXCHANGE_SIGNALS_PORT (EXCHANGE_PORT + 2), the signal channel',
      setting: 'EXCHANGE_SIGNALS_PORT',
    },
    ...(external
      ? []
      : [
          {
            port: settings.dynamoPort,
            label: 'EXCHANGE_DYNAMODB_PORT, DynamoDB Local',
            setting: 'EXCHANGE_DYNAMODB_PORT',
          },
        ]),
  ]);
  const rootPassword = resolveRootPassword(settings.rootPassword, settings.passwordFile);
  // The secrets manager's local master key: generated on the first start, reused after (mode 0600;
  // a key file readable by group or others stops the start with the chmod that fixes it).
  const secretsKeyFile =
    process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE || join(settings.dataDir, 'secrets-master-key');
  loadOrCreateMasterKey(secretsKeyFile);
  // The built-in agbot's token is sealed with it here too (scripts/local/agbot.ts).
  process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE = secretsKeyFile;

  if (external) console.log(`Using the DynamoDB at ${external} (EXCHANGE_DYNAMODB_ENDPOINT)...`);
  const dynamo = external ? { endpoint: external } : await startOwnDynamoDb(settings);
  if (signal.aborted) return;
  await prepareTable({
    endpoint: dynamo.endpoint,
    table: settings.table,
    dataDir: external ? undefined : settings.dynamoDir,
  });

  // The object store's data on local disk (docs/nmp.md#the-object-store): what S3 is on AWS.
  const objectsDir = join(settings.dataDir, 'objects');
  const objects = await startObjectStore({ dir: objectsDir });
  stops.push(objects.stop);

  // The web console is served by the stack from console/dist (functions/console, docs/console.md).
  const built = await buildConsole();
  console.log(`Built the web console (${(built.gzipTotal / 1024).toFixed(1)} KB gzip).`);
  const functions = await buildOwnFunctions();
  if (signal.aborted) return;
  console.log('Starting the Exchange (serverless-offline)...');
  const offline = await startOffline({
    httpPort: settings.httpPort,
    lambdaPort: settings.lambdaPort,
    signalsPort: settings.signalsPort,
    cwd: process.cwd(),
    signal,
    env: {
      ...process.env,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      EXCHANGE_TABLE: settings.table,
      EXCHANGE_ROOT_PW: rootPassword,
      EXCHANGE_SECRETS_PROVIDER: 'local',
      EXCHANGE_SECRETS_MASTER_KEY_FILE: secretsKeyFile,
      EXCHANGE_SIGNALS_URL: `ws://127.0.0.1:${settings.signalsPort}`,
      // The in-stack agbot (docs/agbot.md, "In the stack"): the Exchange it calls.
      EXCHANGE_API_URL: `http://127.0.0.1:${settings.httpPort}/v1`,
      EXCHANGE_OBJECTS_URL: objects.url,
      EXCHANGE_OBJECTS_SECRET: objects.secret,
      ...functions,
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    },
  });
  stops.push(offline.stop);
  void offline.exited.then(() => {
    if (stopping) return;
    console.error('serverless-offline stopped unexpectedly; stopping what npm start started.');
    void shutdown(1);
  });
  offline.forwardOutput();
  const lambdaUrl = `http://127.0.0.1:${settings.lambdaPort}`;
  // serverless-offline runs no DynamoDB streams: the signal dispatcher's mapping is read here.
  const signals = await startSignalsStream({
    dynamoEndpoint: dynamo.endpoint,
    table: settings.table,
    lambdaUrl,
  });
  stops.push(signals.stop);
  const exchangeUrl = `http://127.0.0.1:${settings.httpPort}/v1`;
  const agbot = await startLocalAgbot({
    exchangeUrl,
    rootPassword,
    dataDir: settings.dataDir,
    dynamoEndpoint: dynamo.endpoint,
    table: settings.table,
    lambdaUrl,
    env: process.env,
  });
  if (agbot) {
    stops.push(agbot.stop);
    void agbot.exited.then((code) => {
      if (!stopping) console.error(`The agbot stopped (exit code ${code}); the Exchange keeps running.`);
    });
  }
  console.log(
    [
      '',
      `The Exchange is listening on http://localhost:${settings.httpPort}/v1`,
      `Root credentials: root/root:${rootPassword}`,
      `  e.g. curl -u 'root/root:${rootPassword}' http://localhost:${settings.httpPort}/v1/admin/status`,
      `Web console: http://localhost:${settings.httpPort}/v1/console/index.html (sign in as root/root or any user; docs/console.md)`,
      `Device installer: http://localhost:${settings.httpPort}/v1/agent-install.sh`,
      `  e.g. curl -sSf http://localhost:${settings.httpPort}/v1/agent-install.sh | sudo sh -s -- -k agent-install.cfg (docs/agent.md)`,
      `Object store (agent files, upgrade manifests): HZN_FSS_CSSURL=http://localhost:${settings.httpPort}/v1/css, data in ${objectsDir} (docs/nmp.md)`,
      agbotLine(agbot?.mode),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

/**
 * Every function built in one esbuild call into a folder of this start's own (removed when it
 * stops), which serverless-offline then runs as it is: about three times faster than letting
 * serverless-esbuild build and zip the 29 functions one by one, and nothing is left in the temp
 * folder by a start stopped halfway. The bundles are the ones `serverless deploy` makes
 * (scripts/exchange-functions-build.ts). EXCHANGE_PREBUILT=1 with EXCHANGE_BUILD_DIR runs a build
 * made beforehand instead.
 */
async function buildOwnFunctions(): Promise<Record<string, string>> {
  if (process.env.EXCHANGE_PREBUILT) return {};
  // Relative to the project: serverless-esbuild joins its work folder to the service's path.
  const dir = join('.esbuild', `start-${process.pid}-${randomBytes(4).toString('hex')}`);
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  stops.push(async () => rmSync(join(root, dir), { recursive: true, force: true }));
  const started = Date.now();
  console.log("Building the Exchange's functions...");
  await buildFunctions(dir);
  console.log(`Built the Exchange's functions in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return { EXCHANGE_PREBUILT: '1', EXCHANGE_BUILD_DIR: dir };
}

async function startOwnDynamoDb(settings: ReturnType<typeof readSettings>): Promise<{ endpoint: string }> {
  console.log(`Starting DynamoDB Local on port ${settings.dynamoPort} (data in ${settings.dynamoDir})...`);
  const dynamo = await startDynamoDbLocal({ port: settings.dynamoPort, dataDir: settings.dynamoDir });
  stops.push(dynamo.stop);
  return dynamo;
}

function agbotLine(mode: 'in-stack' | 'standalone' | undefined): string {
  if (mode === 'in-stack')
    return "The agbot IBM/agbot runs in the stack: function agbotRound, on the table's stream and every minute (EXCHANGE_AGBOT=standalone runs the standalone program, off none).";
  if (mode === 'standalone')
    return 'The standalone agbot IBM/agbot runs beside it (its lines start with [agbot]; EXCHANGE_AGBOT=off leaves it out).';
  return 'No agbot (EXCHANGE_AGBOT=off).';
}

startup = main(aborted.signal);
startup.catch((error: unknown) => {
  if (aborted.signal.aborted) return;
  // One clear message, never a stack trace.
  if (error instanceof LocalStackError) console.error(`\n${error.message}`);
  else console.error(`\nnpm start failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
