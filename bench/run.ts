import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DynamoDbLocal } from '../scripts/local/dynamodb-local.ts';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import type { Figures } from './report.ts';

/**
 * `npm run bench`: starts its own DynamoDB Local and serverless-offline, measures the node GET and
 * PUT and the agbot mailbox POST and GET (HTTP load, in-process vs raw calls, calls per request
 * with few and many nodes and agbots) and the DELETE of an agbot with 1,000 messages, builds every
 * function for size and cold import, measures the node agent (bench/agent.ts), prints the figures
 * and writes docs/benchmarks.md. Stops all it started.
 */
const HTTP_SECONDS = 5;
/**
 * serverless-offline's first seconds cost several times its steady state (a Lambda instance per
 * concurrent request, the JIT of each bundle, the file watcher's first scan): measured after these.
 */
const WARM_UP_SECONDS = 5;
/** Interleaved rounds of the loads GET node is compared with (bench/limits.ts). */
const LIMIT_ROUNDS = 3;
const BIG = 10_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const step = (text: string) => console.log(`[bench] ${text}`);

/**
 * Sections measured by their own scripts (cold start variants, the authentication lookup, the
 * agbot) sit below this marker in docs/benchmarks.md; a full run keeps them as they are.
 */
const KEPT_MARKER =
  '<!-- Below: measured by their own scripts (see each section); npm run bench keeps them. -->';

function keptSections(file: string): string {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    return `${KEPT_MARKER}\n`;
  }
  const at = current.indexOf(KEPT_MARKER);
  return at >= 0 ? current.slice(at) : `${KEPT_MARKER}\n`;
}

let dynamo: DynamoDbLocal | undefined;
let stopOffline: (() => Promise<void>) | undefined;

async function cleanup(): Promise<void> {
  const [offline, database] = [stopOffline, dynamo];
  stopOffline = undefined;
  dynamo = undefined;
  await offline?.();
  await database?.stop();
}

async function main(): Promise<void> {
  const started = performance.now();
  try {
    step('starting DynamoDB Local');
    dynamo = await startBenchDynamo();
    // Only now: these modules read the environment set above when they load.
    const seed = await import('./seed.ts');
    const inProcess = await import('./in-process.ts');
    const { load, CONNECTIONS } = await import('./http-load.ts');
    const bundles = await import('./bundles.ts');
    const { markdown } = await import('./report.ts');
    const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
    const mailbox = await import('./messages-run.ts');
    const mailboxSeed = await import('./messages-seed.ts');

    step('seeding org, user and 10 nodes');
    const alice = await seed.seedBase();
    const node = seed.nodeId(0);
    const get = () => inProcess.handlerGet(alice, node);
    const put = () => inProcess.handlerPut(alice, node);
    const calls: Figures['calls'] = [];
    calls.push({
      nodes: seed.BASE_NODES,
      get: await inProcess.callsPerRequest(get),
      getCold: await inProcess.callsPerRequest(inProcess.cold(get)),
      put: await inProcess.callsPerRequest(put),
    });
    step(
      `calls per request with ${seed.BASE_NODES} nodes: GET ${calls[0]?.get} (identity cache miss ${calls[0]?.getCold}), PUT ${calls[0]?.put}`,
    );

    step(`growing the org to ${BIG.toLocaleString('en')} nodes (BatchWriteItem)`);
    await seed.growNodes(BIG);
    calls.push({
      nodes: BIG,
      get: await inProcess.callsPerRequest(get),
      getCold: await inProcess.callsPerRequest(inProcess.cold(get)),
      put: await inProcess.callsPerRequest(put),
    });
    step(`calls per request with ${BIG} nodes: GET ${calls[1]?.get}, PUT ${calls[1]?.put}`);

    step('handler in-process vs raw DynamoDB calls');
    const getComparison = await inProcess.compare(get, () => inProcess.rawGet(node));
    const putComparison = await inProcess.compare(put, () => inProcess.rawPut(node));
    step(`GET ratio ${getComparison.ratio.toFixed(2)}, PUT ratio ${putComparison.ratio.toFixed(2)}`);

    const { cast, calls: fewAgbots } = await mailbox.seedAndCount(alice);
    step(`growing the table to ${BIG.toLocaleString('en')} agbots (BatchWriteItem)`);
    await mailboxSeed.growAgbots(BIG);
    const mailboxCalls = [fewAgbots, await mailbox.countCalls(cast, BIG)];
    step('mailbox handlers in-process vs raw DynamoDB calls');
    const mailboxComparison = await mailbox.compareRaw(cast);
    const nodeMessages = await import('./node-messages.ts');
    const nodeMessageCalls = await nodeMessages.seedAndCount(cast);

    step('GET service: calls per request and in-process vs raw, 10 and 10,000 services');
    const services = await import('./services-run.ts');
    const serviceFigures = await services.runServicesBench(step);
    step('POST /changes: calls per request and in-process vs raw, 10 and 10,000 change rows');
    const changes = await import('./changes-run.ts');
    const changeFigures = await changes.runChangesBench(step);
    step('POST deployment policy: calls per request and in-process vs raw, 10 and 10,000 services');
    const policies = await import('./deployment-policies-run.ts');
    const policyFigures = await policies.runPolicyBench(step);
    step('node searches over 100 and 10,000 nodes, the heartbeat of 1,000 nodes (bench/searches-run.ts)');
    const searches = await import('./searches-run.ts');
    const searchFigures = await searches.runSearchBench(step);
    step('GET and PUT secret, local envelope cost (bench/secrets-run.ts)');
    const secrets = await import('./secrets-run.ts');
    const secretFigures = await secrets.runSecretsBench(step);

    step('starting serverless-offline');
    const offline = await startOffline({
      dynamoEndpoint: dynamo.endpoint,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
    });
    stopOffline = offline.stop;
    step(
      `HTTP load: ${CONNECTIONS} clients, ${HTTP_SECONDS} s per request type (after a ${WARM_UP_SECONDS} s warm-up)`,
    );
    await load(offline.baseUrl, alice, 'GET', WARM_UP_SECONDS);
    const httpGet = await load(offline.baseUrl, alice, 'GET', HTTP_SECONDS);
    await load(offline.baseUrl, alice, 'PUT', WARM_UP_SECONDS);
    const httpPut = await load(offline.baseUrl, alice, 'PUT', HTTP_SECONDS);
    step(
      `against the limits: ${LIMIT_ROUNDS} interleaved rounds of version, GET node, its GetItem alone behind serverless-offline and node:http, raw GetItem`,
    );
    const { measureLimits } = await import('./limits.ts');
    const limits = await measureLimits({
      root,
      offline: { baseUrl: offline.baseUrl, pid: offline.pid },
      dynamo: { endpoint: dynamo.endpoint, pid: dynamo.pid },
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
      auth: alice,
      node,
      rounds: LIMIT_ROUNDS,
      seconds: HTTP_SECONDS,
      warmUpSeconds: WARM_UP_SECONDS,
    });
    const mailboxHttp = await mailbox.httpLoad(offline.baseUrl, cast, HTTP_SECONDS);
    const nodeMessageHttp = await nodeMessages.httpLoad(offline.baseUrl, cast, HTTP_SECONDS);
    stopOffline = undefined;
    await offline.stop();

    step('DELETE of agbots with 1,000 messages each');
    const mailboxDeletes = await mailbox.deletes(alice);

    step('agbot: configured → proposal, 200 agreements, RSS, idle round (bench/agbot-run.ts)');
    const agbotBench = await import('./agbot-run.ts');
    const agbotFigures = await agbotBench.runAgbotBench(step, dynamo.endpoint);

    step('building every function and timing cold imports');
    const nodeOptions = bundles.deployedNodeOptions();
    const built = await bundles.buildBundles();
    const withImports = built.map((bundle) => ({
      ...bundle,
      ...bundles.coldImport(bundle.file, nodeOptions),
    }));
    // The nodes family's bundle against getNode's handler bundled alone (the former per-endpoint Lambda).
    const family = built.find((bundle) => bundle.name === 'nodes');
    const alone = await bundles.buildEndpointBundle('getNode', 'nodes/get-node');
    const [familyImport, aloneImport] = family
      ? bundles.interleavedColdImports([family.file, alone.file], nodeOptions)
      : [];
    const perEndpoint = family &&
      familyImport &&
      aloneImport && { family: { ...family, ...familyImport }, endpoint: { ...alone, ...aloneImport } };
    bundles.cleanBundles();

    step('node agent: memory after start and after 10,000 events, GET load (bench/agent.ts)');
    const { runAgentBench } = await import('./agent.ts');
    const agent = await runAgentBench({ durationSeconds: HTTP_SECONDS });
    // Workloads need a container engine; their section sits below the marker (kept), printed here.
    const workloads = await import('./agent-workloads.ts');
    await workloads.printWhenEngine(step);

    const figures: Figures = {
      http: {
        get: httpGet,
        put: httpPut,
        durationSeconds: HTTP_SECONDS,
        connections: CONNECTIONS,
      },
      limits,
      inProcess: { get: getComparison, put: putComparison },
      calls,
      messages: {
        http: mailboxHttp,
        inProcess: mailboxComparison,
        calls: mailboxCalls,
        deletes: mailboxDeletes,
      },
      nodeMessages: { calls: nodeMessageCalls, http: nodeMessageHttp },
      bundles: withImports,
      perEndpoint,
      agent,
      nodeOptions,
      loadAverage: loadavg()[0] ?? 0,
      seconds: (performance.now() - started) / 1000,
    };
    const reportFile = join(root, 'docs', 'benchmarks.md');
    const report = `${markdown(figures)}\n${services.servicesMarkdown(serviceFigures)}\n${changes.changesMarkdown(changeFigures)}\n${policies.policyMarkdown(policyFigures)}\n${searches.searchesMarkdown(searchFigures)}\n${secrets.secretsMarkdown(secretFigures)}\n${agbotBench.agbotMarkdown(agbotFigures)}\n${keptSections(reportFile)}`;
    writeFileSync(reportFile, report);
    // `npm test` runs Biome over docs too: write the tables the way its formatter lays them out.
    spawnSync(join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', reportFile], {
      stdio: 'ignore',
    });
    console.log(`\n${readFileSync(reportFile, 'utf8')}`);
    step('wrote docs/benchmarks.md');
  } finally {
    await cleanup();
  }
}

// Ctrl-C: let main's finally stop DynamoDB Local and serverless-offline (its own process group).
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    step(`${signal}: stopping what the benchmark started`);
    cleanup().finally(() => process.exit(130));
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
