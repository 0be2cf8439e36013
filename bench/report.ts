import { cpus } from 'node:os';
import type { AgentBenchFigures } from './agent.ts';
import { agentMarkdown } from './agent-report.ts';
import type { ColdImport, FunctionBundle } from './bundles.ts';
import type { LoadResult } from './http-load.ts';
import type { Comparison } from './in-process.ts';
import { LIMIT_LOADS, type LimitFigures, type LimitLoad } from './limits.ts';
import type { DeleteFigures } from './messages.ts';
import type { NodeMessageFigures } from './node-messages.ts';
import { median, round } from './stats.ts';

/** The figures as markdown (docs/benchmarks.md) and as console lines. */
export interface Figures {
  http: {
    get: LoadResult;
    put: LoadResult;
    durationSeconds: number;
    connections: number;
  };
  /** GET node against the no-DynamoDB endpoint, its floors and the raw GetItem (bench/limits.ts). */
  limits: LimitFigures;
  inProcess: { get: Comparison; put: Comparison };
  /** `getCold`: GET node with the identity cache emptied before each request (one GetItem authenticates). */
  calls: { nodes: number; get: number; getCold: number; put: number }[];
  bundles: (FunctionBundle & ColdImport)[];
  /** One family's bundle against one of its endpoints bundled alone (the layout before the families). */
  perEndpoint?: { family: FunctionBundle & ColdImport; endpoint: FunctionBundle & ColdImport };
  messages: {
    http: { post: LoadResult; get: LoadResult };
    inProcess: { post: Comparison; get: Comparison };
    calls: { agbots: number; post: number; get: number }[];
    deletes: DeleteFigures[];
  };
  /** Node messages (bench/node-messages.ts). */
  nodeMessages: NodeMessageFigures;
  /** The node agent (bench/agent.ts). */
  agent: AgentBenchFigures;
  /** 1-minute load average when the run ended (other work on the machine inflates every time). */
  loadAverage: number;
  nodeOptions: string;
  seconds: number;
}

const kb = (bytes: number) => round(bytes / 1024, 1);
const mark = (ok: boolean) => (ok ? 'yes' : '**no**');

export function markdown(f: Figures): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const largest = f.bundles.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const slowest = f.bundles.reduce((a, b) => (b.totalMs > a.totalMs ? b : a));
  const slowestOwn = f.bundles.reduce((a, b) => (b.bundleMs > a.bundleMs ? b : a));
  const [small, large] = [f.calls[0], f.calls[f.calls.length - 1]];
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} × ${cpu},`,
    `Node ${process.version}, DynamoDB Local (in memory) on the same machine; the run took ${Math.round(f.seconds)} s`,
    `with a 1-minute load average of ${round(f.loadAverage, 1)} at the end (other work on the machine slows every figure).`,
    'Absolute figures depend on the machine and on DynamoDB Local (far slower per call than DynamoDB);',
    'the ratios and counts are the portable part. Endpoints: `GET /v1/orgs/{org}/nodes/{node}` as the',
    "owning user and `PUT` of an existing node (body `{name, arch}`) by its owner, then an agbot's mailbox",
    '(below); every password and token is verified once and then served from the verification cache (warm).',
    '',
    `## Over HTTP (serverless-offline, ${f.http.connections} concurrent clients, ${f.http.durationSeconds} s each)`,
    '',
    '| Request | Requests/s | p50 latency | p99 latency | Requests | Non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...(['get', 'put'] as const).map((k) => {
      const r = f.http[k];
      const name = k === 'get' ? 'GET node' : 'PUT node';
      return `| ${name} | ${round(r.requestsPerSecond, 0)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx + r.errors} |`;
    }),
    '',
    'Each client works on a node of its own, so PUTs never race. serverless-offline runs every handler',
    'in one Node process (`useInProcess`), so this measures the local stack, not Lambda.',
    '',
    ...limitsSection(f),
    '## Handler in-process vs its raw DynamoDB calls',
    '',
    'Median of 300 interleaved runs against the same DynamoDB Local, warm auth cache. Raw = the calls the',
    'warm handler needs, issued directly with the SDK (the identity is cached per instance, so neither side',
    'authenticates against DynamoDB): GET = one GetItem (the node); PUT = GetItem (the node) + one',
    'TransactWriteItems of the conditional node update (with its search-index sort key) and its change row.',
    '',
    '| Request | Handler | Raw calls | Ratio | Target ≤ 1.2 |',
    '|---|---:|---:|---:|---|',
    ...(['get', 'put'] as const).map((k) => {
      const c = f.inProcess[k];
      const name = k === 'get' ? 'GET node' : 'PUT node';
      return `| ${name} | ${round(c.handlerMs)} ms | ${round(c.rawMs)} ms | ${round(c.ratio)} | ${mark(c.ratio <= 1.2)} |`;
    }),
    '',
    '## DynamoDB calls per request',
    '',
    'Counted with `dynamoCallCount()` (tables/client.ts) over 20 warm requests, with the org holding',
    'few and many nodes (seeded with BatchWriteItem).',
    '',
    `| Request | ${f.calls.map((c) => `${c.nodes.toLocaleString('en')} nodes`).join(' | ')} | Target |`,
    `|---|${f.calls.map(() => '---:').join('|')}|---|`,
    `| GET node | ${f.calls.map((c) => c.get).join(' | ')} | same, ≤ 2: ${mark(small?.get === large?.get && (large?.get ?? 99) <= 2)} |`,
    `| GET node, identity cache missed | ${f.calls.map((c) => c.getCold).join(' | ')} | 2 (one GetItem authenticates): ${mark(f.calls.every((c) => c.getCold === 2))} |`,
    `| PUT node | ${f.calls.map((c) => c.put).join(' | ')} | same: ${mark(small?.put === large?.put)} |`,
    '',
    ...messagesSection(f),
    ...nodeMessagesSection(f),
    '## Bundles and cold import',
    '',
    'One function per resource family (functions/<family>/lambda.ts, generated from its route list), plus',
    "the catch-all, each built as serverless.yml's `custom.esbuild` does (ESM, minified, node22, the AWS SDK",
    `bundled: issue 15 traded the 300 KB target for a faster cold start). Cold import = a fresh \`node\` process importing the .mjs (NODE_OPTIONS \`${f.nodeOptions}\` as`,
    'deployed), timed inside it, median of 5.',
    '',
    ...perEndpointLines(f),
    `Largest bundle: ${largest.name} ${kb(largest.bytes)} KB (the 300 KB target is traded for cold start, issue 15: ${mark(largest.bytes <= 300 * 1024)}).`,
    `Slowest cold import: ${slowest.name} ${round(slowest.totalMs, 1)} ms in all (target ≤ 100 ms: ${mark(slowest.totalMs <= 100)}),`,
    `of which an external AWS SDK ${round(slowest.sdkMs, 1)} ms (0 when bundled). The bundles alone:`,
    `at most ${round(slowestOwn.bundleMs, 1)} ms (${slowestOwn.name}; ${mark(slowestOwn.bundleMs <= 100)}).`,
    '',
    '| Function | Handler | Size | Cold import | of which SDK | Bundle alone |',
    '|---|---|---:|---:|---:|---:|',
    ...f.bundles.map(
      (b) =>
        `| ${b.name} | \`${b.handler}\` | ${kb(b.bytes)} KB | ${round(b.totalMs, 1)} ms | ${round(b.sdkMs, 1)} ms | ${round(b.bundleMs, 1)} ms |`,
    ),
    '',
    ...agentMarkdown(f.agent),
  ];
  return lines.join('\n');
}

/** A family's bundle against one endpoint bundled alone, as every endpoint was deployed before. */
function perEndpointLines(f: Figures): string[] {
  if (!f.perEndpoint) return [];
  const { family, endpoint } = f.perEndpoint;
  const row = (b: FunctionBundle & ColdImport) =>
    `| ${b.name} | \`${b.handler}\` | ${kb(b.bytes)} KB | ${round(b.totalMs, 1)} ms | ${round(b.sdkMs, 1)} ms | ${round(b.bundleMs, 1)} ms |`;
  return [
    `Per family vs per endpoint (median of 15 cold imports each, taken in turn): the ${family.name} family's Lambda serves`,
    `its endpoints from one bundle; before, each endpoint was a Lambda of its own (${endpoint.name}).`,
    '',
    '| Bundle | Entry | Size | Cold import | of which SDK | Bundle alone |',
    '|---|---|---:|---:|---:|---:|',
    row(family),
    row(endpoint),
    '',
  ];
}

/** POST a message, GET a mailbox of 100, DELETE an agbot with 1,000 messages. */
function messagesSection(f: Figures): string[] {
  const m = f.messages;
  const names = { post: 'POST message', get: 'GET 100 messages' } as const;
  const [small, large] = [m.calls[0], m.calls[m.calls.length - 1]];
  const wall = m.deletes.map((d) => d.wallMs);
  return [
    '## Agbot messages',
    '',
    '`POST /v1/orgs/{org}/agbots/{agbot}/msgs` by a node (10 nodes, one per client, all to one agbot: ids',
    "come from that agbot's counter) and `GET .../msgs` by the agbot itself with 100 messages waiting.",
    '',
    `Over HTTP (serverless-offline, ${f.http.connections} concurrent clients, ${f.http.durationSeconds} s each):`,
    '',
    '| Request | Requests/s | p50 latency | p99 latency | Requests | Non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...(['post', 'get'] as const).map((k) => {
      const r = m.http[k];
      return `| ${names[k]} | ${round(r.requestsPerSecond, 0)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx + r.errors} |`;
    }),
    '',
    'Handler in-process vs its raw DynamoDB calls (median of 300 interleaved runs, identity cached on both',
    'sides). Raw POST = BatchGetItem of the agbot, the node',
    'and the mailbox state + TransactWriteItems (mailbox state, the message, agbot check, change sequence,',
    "change row) + UpdateItem (the org's message count); raw GET = GetItem (the agbot) + consistent",
    "Query of the agbot's messages. Since the mailbox state moves in the message's transaction, the 10",
    'clients posting to one agbot over HTTP race for it (the losers read it again and retry).',
    '',
    '| Request | Handler | Raw calls | Ratio | Target ≤ 1.2 |',
    '|---|---:|---:|---:|---|',
    ...(['post', 'get'] as const).map((k) => {
      const c = m.inProcess[k];
      return `| ${names[k]} | ${round(c.handlerMs)} ms | ${round(c.rawMs)} ms | ${round(c.ratio)} | ${mark(c.ratio <= 1.2)} |`;
    }),
    '',
    'DynamoDB calls per request over 20 warm requests, with few and many agbots in the table:',
    '',
    `| Request | ${m.calls.map((c) => `${c.agbots.toLocaleString('en')} agbots`).join(' | ')} | Target |`,
    `|---|${m.calls.map(() => '---:').join('|')}|---|`,
    `| POST message | ${m.calls.map((c) => c.post).join(' | ')} | same: ${mark(small?.post === large?.post)} |`,
    `| GET 100 messages | ${m.calls.map((c) => c.get).join(' | ')} | same: ${mark(small?.get === large?.get)} |`,
    '',
    `DELETE of an agbot holding ${m.deletes[0]?.messages.toLocaleString('en') ?? 0} messages, by its owner, in-process`,
    `(${m.deletes.length} agbots): wall time ${m.deletes.map((d) => `${round(d.wallMs, 0)} ms`).join(', ')}`,
    `(median ${round(median(wall), 0)} ms); DynamoDB calls ${m.deletes.map((d) => d.calls).join(', ')}. Nothing of`,
    "the agbot's partition is left afterwards (checked).",
    '',
  ];
}

/** POST and GET of node messages: HTTP rates and warm DynamoDB calls. */
function nodeMessagesSection(f: Figures): string[] {
  const n = f.nodeMessages;
  const rows: [string, LoadResult][] = [
    ['POST message (9 nodes)', n.http.postSpread],
    ['POST message (one node)', n.http.postOneNode],
    ['GET 100 messages', n.http.get],
  ];
  return [
    '## Node messages',
    '',
    '`POST /v1/orgs/{org}/nodes/{node}/msgs` by agbots (10 agbots, one per client), spread over 9 nodes',
    'and all into one node, and `GET .../msgs` by the node itself with 100 messages waiting. Every POST',
    "(of either mailbox) also moves the change feed's one sequence item in its transaction",
    '(tables/feed/changes.ts), so concurrent POSTs race for that item whatever their mailbox: the losers retry,',
    'which is why spreading the posts over 9 nodes does not raise the rate.',
    '',
    `Over HTTP (serverless-offline, ${f.http.connections} concurrent clients, ${f.http.durationSeconds} s each):`,
    '',
    '| Request | Requests/s | p50 latency | p99 latency | Requests | Non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, r]) =>
        `| ${name} | ${round(r.requestsPerSecond, 0)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.requests} | ${r.non2xx + r.errors} |`,
    ),
    '',
    'Warm DynamoDB calls per request (20 requests, identity cached):',
    '',
    '| Request | Calls | Target |',
    '|---|---:|---|',
    `| POST agbot message | ${f.messages.calls[f.messages.calls.length - 1]?.post ?? 0} | ≤ 3: ${mark((f.messages.calls[f.messages.calls.length - 1]?.post ?? 9) <= 3)} |`,
    `| GET agbot messages | ${f.messages.calls[f.messages.calls.length - 1]?.get ?? 0} | ≤ 2: ${mark((f.messages.calls[f.messages.calls.length - 1]?.get ?? 9) <= 2)} |`,
    `| POST node message | ${n.calls.post} | ≤ 3: ${mark(n.calls.post <= 3)} |`,
    `| GET node messages | ${n.calls.get} | ≤ 2: ${mark(n.calls.get <= 2)} |`,
    '',
  ];
}

const LIMIT_NAMES: Record<LimitLoad, string> = {
  version: '`GET /v1/admin/version` over HTTP (no DynamoDB)',
  get: 'GET node over HTTP',
  floorOffline: 'Floor: that GetItem alone in a function, over serverless-offline',
  floorNodeHttp: 'Floor: the same function behind a bare node:http server',
  raw: 'Raw GetItem of the node (what a warm GET node needs)',
};

/** Medians over the interleaved rounds: of a load's rate, of one process's CPU, of a ratio of two loads. */
function limitStats(limits: LimitFigures) {
  const { rounds } = limits;
  const ratios = (a: LimitLoad, b: LimitLoad) =>
    rounds.map((r) => r[a].requestsPerSecond / r[b].requestsPerSecond);
  return {
    rate: (load: LimitLoad) => median(rounds.map((r) => r[load].requestsPerSecond)),
    cpu: (load: LimitLoad, process: string) => {
      const values = rounds.map((r) => r[load].cpu[process]).filter((v): v is number => v !== undefined);
      return values.length > 0 ? median(values) : undefined;
    },
    ratio: (a: LimitLoad, b: LimitLoad) => median(ratios(a, b)),
    eachRound: (a: LimitLoad, b: LimitLoad) =>
      ratios(a, b)
        .map((v) => round(v))
        .join(', '),
  };
}

/** Where each request's CPU went: the processes share the machine's cores, so this caps the HTTP rates. */
function cpuLines(limits: LimitFigures): string[] {
  const stats = limitStats(limits);
  const ms = (value: number | undefined) => (value === undefined ? '—' : `${round(value)} ms`);
  return [
    '',
    'CPU time per request of each process during those loads (/proc; user + system; medians of the rounds):',
    '',
    '| Load | HTTP server (runs the handler) | DynamoDB Local | this process (load generator / raw calls) |',
    '|---|---:|---:|---:|',
    ...LIMIT_LOADS.map(
      (load) =>
        `| ${LIMIT_NAMES[load]} | ${ms(stats.cpu(load, 'server'))} | ${ms(stats.cpu(load, 'dynamo'))} | ${ms(stats.cpu(load, 'bench'))} |`,
    ),
    '',
    'All these processes share the same cores, so the HTTP rate of GET node is bounded by the sum of its row,',
    'while the raw rate pays only its own row. On Lambda, API Gateway and the function have cores of their own.',
  ];
}

/**
 * What the floors say: the best rate any handler making GET node's GetItem reaches over
 * serverless-offline, how close GET node is to it, and what HTTP alone allows (node:http).
 */
function floorLines(limits: LimitFigures): string[] {
  const stats = limitStats(limits);
  const floor = stats.ratio('floorOffline', 'raw');
  return [
    '',
    `The floor over serverless-offline ÷ raw GetItem: ${round(floor)} (rounds: ${stats.eachRound('floorOffline', 'raw')}).`,
    'A function that makes only this GetItem (bench/floor/get-item-function.ts: no authentication, routing,',
    'validation or entity formatting) gets no closer on the decided local stack, so on this machine',
    floor >= 0.5
      ? 'a handler can reach the target.'
      : '**no handler can reach the target** behind serverless-offline.',
    `GET node reaches ${round(stats.ratio('get', 'floorOffline'))} of that floor (rounds: ${stats.eachRound('get', 'floorOffline')}).`,
    `The same function behind a bare node:http server reaches ${round(stats.ratio('floorNodeHttp', 'raw'))} of the raw rate`,
    `(rounds: ${stats.eachRound('floorNodeHttp', 'raw')}). The two floors run the same function against the same`,
    "DynamoDB Local, so what separates them is serverless-offline's per-invocation work (it resolves and imports",
    'the handler, builds the event, copies the environment and logs two lines on every request).',
  ];
}

/** The limits in one run at the same concurrency: HTTP with no DynamoDB, GET node, its floors, raw GetItem; calls per request. */
function limitsSection(f: Figures): string[] {
  const stats = limitStats(f.limits);
  const ratio = stats.ratio('get', 'raw');
  const getCalls = f.calls[f.calls.length - 1]?.get ?? 0;
  const coldCalls = f.calls[f.calls.length - 1]?.getCold ?? 0;
  const postCalls = f.messages.calls[f.messages.calls.length - 1]?.post ?? 0;
  return [
    `## Against the limits (one run, ${f.limits.connections} concurrent clients, ${f.limits.rounds.length} interleaved rounds of ${f.limits.seconds} s per load)`,
    '',
    '| Measure | Requests/s (median of the rounds) |',
    '|---|---:|',
    ...LIMIT_LOADS.map((load) => `| ${LIMIT_NAMES[load]} | ${round(stats.rate(load), 0)} |`),
    '',
    `GET node over HTTP ÷ raw GetItem: ${round(ratio)} (rounds: ${stats.eachRound('get', 'raw')}; target ≥ 0.5: ${mark(ratio >= 0.5)}).`,
    ...floorLines(f.limits),
    ...cpuLines(f.limits),
    `DynamoDB calls of a warm GET node: ${getCalls} (target 1: ${mark(getCalls <= 1)}); of a GET node whose caller's`,
    `identity cache missed: ${coldCalls} (one GetItem of the principal item, then the node); of a warm POST message:`,
    `${postCalls} (target ≤ 3: ${mark(postCalls <= 3)}).`,
    '',
  ];
}
