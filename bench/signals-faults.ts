/**
 * Lost signals (issue 32): `npm run bench:signals`. DynamoDB Local behind a counting proxy,
 * serverless-offline with the in-stack agbot and the signal dispatcher on the table's stream (both
 * through the local stream reader, as `npm start` runs them), a proxy in front of the signal
 * channel (test/e2e/support/signal-faults.ts) and N real agents (`dist/agent.mjs`, default
 * settings: the channel on, an idle node polls hourly) that reach the Exchange through a watch
 * noting their polls and mailbox reads. Once every agent idles on its channel:
 * 1. an idle window, counting the dispatcher's invocations (an idle node's writes record no
 *    change rows, so none are expected);
 * 2. the proxy fails one "look now" post in SIGNALS_FAIL_EVERY (the first, then every n-th), a
 *    deployment policy matching every node is added, and for each node it prints the delay from
 *    the agbot writing its proposal (the message's `timeSent`) to the agent reading it from its
 *    mailbox, then the dispatcher's invocations and DynamoDB calls per change row.
 *
 * SIGNALS_NODES (4), SIGNALS_IDLE_SECONDS (60), SIGNALS_FAIL_EVERY (3; 0 fails none, a baseline).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';

const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const NODES = env('SIGNALS_NODES', 4);
const IDLE_S = env('SIGNALS_IDLE_SECONDS', 60);
const FAIL_EVERY = env('SIGNALS_FAIL_EVERY', 3);
const ORG = 'faults';
const SERVICE = { url: 'hello.faults', version: '1.0.0', arch: 'amd64' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** DynamoDB calls while counting: by operation, and those on the signal partitions by operation. */
interface DynamoCounts {
  counting: boolean;
  byOperation: Map<string, number>;
  /** Calls whose partition key is `SIGNALS#…` or `SIGNAL#…` (who listens: the dispatcher's reads, forgets). */
  onSignalPartitions: Map<string, number>;
}

const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);

/** The partition a call names (Query `:pk`, or the key of an item call), when it names one. */
function partitionOf(input: Record<string, unknown>): string {
  const values = input.ExpressionAttributeValues as Record<string, { S?: string }> | undefined;
  const key = input.Key as Record<string, { S?: string }> | undefined;
  return values?.[':pk']?.S ?? key?.pk?.S ?? '';
}

function dynamoCountingProxy(target: string, counts: DynamoCounts): Promise<{ url: string; server: Server }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
      if (counts.counting) {
        add(counts.byOperation, operation);
        try {
          const partition = partitionOf(JSON.parse(body.toString() || '{}'));
          if (partition.startsWith('SIGNAL')) add(counts.onSignalPartitions, operation);
        } catch {
          // not JSON: counted by operation only
        }
      }
      const out = request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': body.length },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

async function main() {
  const dynamo = await startBenchDynamo();
  const counts: DynamoCounts = { counting: false, byOperation: new Map(), onSignalPartitions: new Map() };
  const db = await dynamoCountingProxy(dynamo.endpoint, counts);
  const scratch = mkdtempSync(join(tmpdir(), 'bench-signals-'));
  const cleanups: (() => Promise<void> | void)[] = [
    () => rmSync(scratch, { recursive: true, force: true }),
    () => new Promise<void>((resolve) => db.server.close(() => resolve())),
    () => dynamo.stop(),
  ];
  try {
    const { createTableIfMissing } = await import('#tables/create-table');
    const { bootstrap } = await import('#tables/bootstrap');
    const { nodeConnections } = await import('#tables/signals/connections');
    const { signDeployment } = await import('#lib/protocol/deployment-signature');
    const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
    const { startAgbotStream } = await import('../scripts/local/agbot-stream.ts');
    const { httpClient } = await import('../test/support/http.ts');
    const { createOrg, createUser, expectStatus } = await import('../test/support/world.ts');
    const { testSigner } = await import('../test/e2e/support/agbot-org.ts');
    const { channelProxy, exchangeWatch } = await import('../test/e2e/support/signal-faults.ts');
    const { buildAgent, startIdleAgents, waitUntilIdle } = await import('../test/e2e/support/idle-agents.ts');
    await createTableIfMissing(BENCH_TABLE);
    await bootstrap();
    const channel = await channelProxy();
    cleanups.unshift(channel.close);
    const server = await startOffline({
      dynamoEndpoint: db.url,
      // Lambda's reads of a stream are not billed: the readers read DynamoDB Local directly.
      streamsEndpoint: dynamo.endpoint,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
      env: {
        EXCHANGE_AGBOT: 'in-stack',
        EXCHANGE_SECRETS_MASTER_KEY_FILE: join(scratch, 'secrets-master-key'),
        EXCHANGE_SIGNALS_URL: channel.url,
      },
    });
    cleanups.unshift(server.stop);
    channel.target(Number(new URL(server.signalsUrl).port));
    const dispatch = server.signalsStream;
    if (!dispatch) throw new Error('the server runs no signal dispatcher');
    const http = httpClient(server.baseUrl);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    expectStatus(await http('POST', '/v1/admin/initdb', { auth: root }), 201, 'initdb');
    const agbotStream = await startAgbotStream({
      dynamoEndpoint: dynamo.endpoint,
      table: BENCH_TABLE,
      lambdaUrl: server.lambdaUrl,
      log: () => undefined,
    });
    cleanups.unshift(agbotStream.stop);
    await createOrg({ http, root }, ORG);
    const owner = await createUser({ http, root }, ORG, 'owner', { admin: true });
    const signer = testSigner();
    const deployment = JSON.stringify({ services: { hello: { image: 'busybox:latest' } } });
    expectStatus(
      await http('POST', `/v1/orgs/${ORG}/services`, {
        auth: owner,
        body: {
          label: SERVICE.url,
          ...SERVICE,
          sharable: 'multiple',
          deployment,
          deploymentSignature: signDeployment(deployment, signer.privateKey),
        },
      }),
      201,
      'service',
    );
    const exchange = await exchangeWatch(server.baseUrl);
    cleanups.unshift(exchange.close);
    console.log(
      `signals under faults: ${NODES} agents (dist/agent.mjs, default settings), building the agent…`,
    );
    buildAgent();
    const idle = await startIdleAgents({
      count: NODES,
      org: ORG,
      owner,
      http,
      exchange,
      properties: [{ name: 'purpose', value: 'faults' }],
      signerPem: signer.publicKey,
    });
    cleanups.unshift(idle.stop);
    await waitUntilIdle(idle.agents, channel, exchange, 300_000);
    console.log('every agent idles on its channel (hourly poll)');

    const before = { invocations: dispatch.invocations(), rows: dispatch.records() };
    counts.counting = true;
    await sleep(IDLE_S * 1000);
    counts.counting = false;
    console.log(
      `\nidle window, ${IDLE_S} s, ${NODES} nodes: signal dispatcher ${dispatch.invocations() - before.invocations} invocations ` +
        `(${dispatch.records() - before.rows} change rows); DynamoDB calls: ${total(counts.byOperation)} ` +
        `(${[...counts.byOperation].map(([op, n]) => `${op} ${n}`).join(', ') || 'none'})`,
    );

    counts.byOperation.clear();
    counts.onSignalPartitions.clear();
    const start = {
      invocations: dispatch.invocations(),
      rows: dispatch.records(),
      failures: dispatch.failures(),
    };
    // The first post, then every FAIL_EVERY-th (0: none, for a baseline).
    channel.arm((n) => FAIL_EVERY > 0 && n % FAIL_EVERY === 1 % FAIL_EVERY);
    counts.counting = true;
    const addedAt = Date.now();
    expectStatus(
      await http('POST', `/v1/orgs/${ORG}/business/policies/faults`, {
        auth: owner,
        body: {
          label: 'faults',
          service: {
            name: SERVICE.url,
            org: ORG,
            arch: SERVICE.arch,
            serviceVersions: [{ version: SERVICE.version }],
          },
          constraints: ['purpose == faults'],
        },
      }),
      201,
      'policy',
    );
    const deadline = Date.now() + 180_000;
    const connectionsOf = new Map<string, string[]>();
    for (const agent of idle.agents) connectionsOf.set(agent.node, await nodeConnections(ORG, agent.id));
    const received = new Map<string, { proposedAt: number; readAt: number }>();
    while (received.size < idle.agents.length && Date.now() < deadline) {
      for (const agent of idle.agents) {
        if (received.has(agent.node)) continue;
        const read = exchange
          .mailboxReads(agent.node)
          .find((r) => r.answeredAt > addedAt && r.messages.some((m) => m.agbotId === 'IBM/agbot'));
        const message = read?.messages.find((m) => m.agbotId === 'IBM/agbot');
        if (read && message)
          received.set(agent.node, { proposedAt: Date.parse(message.timeSent), readAt: read.answeredAt });
      }
      await sleep(100);
    }
    // The window ends 5 s after the last node read its proposal: what the dispatcher was doing
    // then has finished. (The agreements' own messages go on changing rows for a while after.)
    await sleep(5_000);
    counts.counting = false;
    const end = {
      invocations: dispatch.invocations(),
      rows: dispatch.records(),
      failures: dispatch.failures(),
    };

    const posts = channel.counts();
    console.log(
      `\nfaults: ${FAIL_EVERY === 0 ? 'none' : FAIL_EVERY === 1 ? 'every "look now" post answered 500' : `one "look now" post in ${FAIL_EVERY} answered 500`} (${posts.failed} of ${posts.posts} posts), ${posts.closes} connections closed`,
    );
    console.log('proposal written (timeSent) → read by the agent from its mailbox, per node:');
    const delays: number[] = [];
    for (const agent of idle.agents) {
      const got = received.get(agent.node);
      if (!got) {
        // What the Exchange holds for it, to tell a lost signal from a proposal never made.
        const msgs = await http('GET', `/v1/orgs/${ORG}/nodes/${agent.id}/msgs`, { auth: root });
        const held = (msgs.body?.messages ?? []) as { agbotId: string; timeSent: string }[];
        const polls = exchange.polls(agent.node).filter((p) => p.startedAt > addedAt).length;
        const ids = connectionsOf.get(agent.node) ?? [];
        const posted = channel.posts().filter((p) => p.at > addedAt && ids.includes(p.connectionId));
        console.log(
          `  ${agent.node}: posts to its connection(s) ${ids.join(',')} since the policy: ${posted.map((p) => `${p.status} at +${p.at - addedAt} ms`).join(', ') || 'none'}`,
        );
        console.log(
          `  ${agent.node}: NOT RECEIVED within 180 s (its mailbox holds ${held.length} message(s)` +
            `${held.map((m) => ` from ${m.agbotId} at ${m.timeSent}`).join(',')}; ${polls} polls since the policy; ` +
            `connections: ${(await nodeConnections(ORG, agent.id)).length})`,
        );
        continue;
      }
      const delay = got.readAt - got.proposedAt;
      delays.push(delay);
      // The first post that reached its connection after the proposal: the stream and the
      // dispatcher's share of the delay; the rest is the agent's poll and mailbox read.
      const posted = channel
        .posts()
        .find(
          (p) =>
            p.at >= got.proposedAt &&
            p.status < 300 &&
            connectionsOf.get(agent.node)?.includes(p.connectionId),
        );
      console.log(
        `  ${agent.node}: ${delay} ms (posted after ${posted ? posted.at - got.proposedAt : '?'} ms; policy added → read: ${got.readAt - addedAt} ms)`,
      );
    }
    if (delays.length > 0) console.log(`  max: ${Math.max(...delays)} ms (target ≤ 10,000 ms)`);
    if (process.env.SIGNALS_DEBUG) {
      console.log('connections at the policy:', JSON.stringify(Object.fromEntries(connectionsOf)));
      console.log('posts:', JSON.stringify(channel.posts()));
      console.log('opened:', JSON.stringify(idle.agents.map((a) => [a.node, channel.openedAt(a.node)])));
      console.log(
        'dispatcher warnings:\n',
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('closed connections') || line.includes('not delivered'))
          .join('\n'),
      );
      console.log(
        'polls:',
        JSON.stringify(
          idle.agents.map((a) => [a.node, exchange.polls(a.node).map((p) => [p.startedAt, p.aboutNode])]),
        ),
      );
    }
    const changeRows = end.rows - start.rows;
    const invocations = end.invocations - start.invocations;
    const perRow = (value: number) => (changeRows > 0 ? (value / changeRows).toFixed(2) : 'n/a');
    console.log(
      `\nsignal dispatcher from the policy to 5 s after the last proposal read (${changeRows} change rows): ${invocations} invocations ` +
        `(${end.failures - start.failures} failed), ${perRow(invocations)} per change row`,
    );
    const signalCalls = total(counts.onSignalPartitions);
    console.log(
      `  DynamoDB calls on the signal partitions: ${signalCalls} (${[...counts.onSignalPartitions].map(([op, n]) => `${op} ${n}`).join(', ') || 'none'}), ` +
        `${perRow(signalCalls)} per change row; all DynamoDB calls of the stack meanwhile: ${total(counts.byOperation)}`,
    );
  } finally {
    for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
