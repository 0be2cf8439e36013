/**
 * Workloads on the node (issue 14): the shipped agent (dist/agent.mjs, its own process, 1 s polls)
 * against the real Exchange (serverless-offline over the bench's DynamoDB Local) and the container
 * engine at DOCKER_HOST (podman), with a scripted agbot built from lib/protocol that polls its
 * mailbox every second. Measures:
 * - configured → `container_running`: from `PUT /node/configstate` to the event (the agent's first
 *   round publishes its key; the agbot sees it at its next poll, proposes, reads the reply, acks);
 * - secret update → file changed: from the agbot's `basicagreementupdatesecret` to the new value
 *   in the agreement's secret file (the file the container sees at /platform-secrets);
 * - DELETE /agreement → containers gone (engine polled every 50 ms);
 * - the agent's RSS with 10 running agreements, against its target of at most 80 MB.
 *
 * `npx tsx bench/agent-workloads.ts` runs it alone (needs `npm run build:agent` first and an engine:
 * `export $(scripts/containers/podman-service.sh start /tmp/oe-engine)`); bench/run.ts calls
 * runAgentWorkloadsBench() when an engine answers.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, waitForPort } from '../scripts/local/ports.ts';
import { BENCH_TABLE, ROOT_PASSWORD, startBenchDynamo } from './env.ts';
import { median } from './stats.ts';

const ORG = 'bench-workloads';
const NODE_ID = 'node1';
const NODE_TOKEN = 'bench-node-token';
const AGBOT = 'agbot1';
const RUNNING_AGREEMENTS = 10;
const SECRET_UPDATES = 5;
const MEMORY_TARGET_MB = 80;

interface WorkloadFigures {
  configuredToRunningMs: number;
  secretUpdateMs: number[];
  deleteToGoneMs: number[];
  rssMbIdle: number;
  rssMbWithAgreements: number;
  agreements: number;
  commandLine: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  everyMs: number,
  limitMs = 60_000,
) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round((Number(line[1]) / 1024) * 10) / 10 : Number.NaN;
}

/** `agent`: the program and its arguments (bench/agent-bin.ts passes the single executable). */
export async function runAgentWorkloadsBench(
  step: (text: string) => void,
  agent: string[] = [process.execPath, 'dist/agent.mjs'],
): Promise<WorkloadFigures> {
  const dynamo = process.env.DYNAMODB_ENDPOINT ? undefined : await startBenchDynamo();
  // Loaded after the environment is set (tables/client.ts reads it).
  const { createTableIfMissing } = await import('#tables/create-table');
  const { bootstrap } = await import('#tables/bootstrap');
  const { startOffline } = await import('../test/e2e/support/serverless-offline.ts');
  const { httpClient } = await import('../test/support/http.ts');
  const { createOrg, createUser, expectStatus } = await import('../test/support/world.ts');
  const { createAgbot } = await import('#test/support/identities');
  const { engineAt, containersOf, removeWorkload } = await import('../agent/workloads/engine.ts');
  const { busyboxTestImage } = await import('../agent/test-support/engine.ts');
  const protocol = await import('./agent-workloads-agbot.ts');

  const docker = engineAt(process.env.DOCKER_HOST, 5000);
  await docker.ping();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-workloads-'));
  let stopOffline: (() => Promise<void>) | undefined;
  let agentPid: number | undefined;
  const agreementIds: string[] = [];
  try {
    step('workloads: the test image, the Exchange (serverless-offline)');
    const image = await busyboxTestImage();
    await createTableIfMissing(BENCH_TABLE);
    await bootstrap();
    const server = await startOffline({
      dynamoEndpoint: process.env.DYNAMODB_ENDPOINT as string,
      table: BENCH_TABLE,
      rootPassword: ROOT_PASSWORD,
    });
    stopOffline = server.stop;
    const http = httpClient(server.baseUrl);
    const root = { user: 'root/root', secret: ROOT_PASSWORD };
    await createOrg({ http, root }, ORG);
    const user = await createUser({ http, root }, ORG, 'owner');
    const nodePath = `/v1/orgs/${ORG}/nodes/${NODE_ID}`;
    const node = { name: NODE_ID, token: NODE_TOKEN, pattern: '', publicKey: '', arch: 'amd64' };
    expectStatus(await http('PUT', nodePath, { auth: user, body: node }), 201, 'PUT node');
    const agbotCreds = await createAgbot(ORG, AGBOT, user.user, { token: 'bench-agbot-token' });
    const signer = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const agbot = await protocol.scriptedAgbot({ http, org: ORG, nodeId: NODE_ID, agbot: agbotCreds, user });

    step(`workloads: ${agent.join(' ')} with 1 s polls`);
    const port = await freePort();
    const child = spawn(agent[0] as string, agent.slice(1), {
      env: {
        ...process.env,
        HZN_AGENT_PORT: String(port),
        HZN_EXCHANGE_URL: `${server.baseUrl}/v1`,
        HZN_AGENT_DATA_DIR: dataDir,
        HZN_AGENT_POLL_SECONDS: '1',
        HZN_AGENT_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    agentPid = child.pid;
    await waitForPort(port, 20_000);
    const agentUrl = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, body?: unknown, text = false) => {
      const res = await fetch(`${agentUrl}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : text
            ? { body: body as string, headers: { 'content-type': 'text/plain' } }
            : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const answer = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${answer}`);
      return answer ? JSON.parse(answer) : undefined;
    };
    await call('POST', '/node', { id: NODE_ID, organization: ORG, token: NODE_TOKEN, name: NODE_ID });
    await call('POST', '/node/policy', {
      properties: [{ name: 'purpose', value: 'bench' }],
      constraints: [],
    });
    await call('PUT', '/trust/signer.pem', signer.publicKey, true);
    await sleep(1500);
    const rssMbIdle = rssMb(agentPid as number);
    const commandLine = readFileSync(`/proc/${agentPid}/cmdline`, 'utf8').split('\0').join(' ').trim();

    const propose = (name: string, value: string) =>
      protocol.proposal({ org: ORG, nodeId: NODE_ID, agbot: AGBOT, image, signer, name, value });
    const running = (agreementId: string) =>
      until(
        'container_running',
        async () => {
          const events = await call(
            'GET',
            `/eventlog?agreement_id=${agreementId}&event_code=container_running`,
          );
          return events.length > 0 ? true : undefined;
        },
        50,
      );

    step('workloads: configured → container_running');
    const first = propose('bench-0', 'value-0');
    agreementIds.push(first.agreementId);
    const configuredAt = performance.now();
    await call('PUT', '/node/configstate', { state: 'configured' });
    await agbot.waitForNodeKey(1000);
    await agbot.send(first.message);
    await agbot.acceptReply(first.agreementId, 1000);
    await running(first.agreementId);
    const configuredToRunningMs = Math.round(performance.now() - configuredAt);
    step(`  ${configuredToRunningMs} ms`);

    step(`workloads: ${SECRET_UPDATES} secret updates → file changed`);
    const secretFile = join(dataDir, 'secrets', first.agreementId, 'token');
    const secretUpdateMs: number[] = [];
    for (let i = 1; i <= SECRET_UPDATES; i++) {
      const value = `value-0-update-${i}`;
      const sent = performance.now();
      await agbot.send(protocol.secretUpdate(ORG, first.agreementId, value));
      await until(
        'the secret file',
        async () => (readFileSync(secretFile, 'utf8').includes(value) ? true : undefined),
        20,
      );
      secretUpdateMs.push(Math.round(performance.now() - sent));
      await agbot.drain();
    }

    step(`workloads: ${RUNNING_AGREEMENTS} running agreements`);
    for (let i = 1; i < RUNNING_AGREEMENTS; i++) {
      const next = propose(`bench-${i}`, `value-${i}`);
      agreementIds.push(next.agreementId);
      await agbot.send(next.message);
      await agbot.acceptReply(next.agreementId, 1000);
    }
    for (const id of agreementIds) await running(id);
    await sleep(2000);
    const rssMbWithAgreements = rssMb(agentPid as number);
    step(`  RSS ${rssMbIdle} MB idle, ${rssMbWithAgreements} MB with ${agreementIds.length} agreements`);

    step('workloads: DELETE /agreement → containers gone');
    const deleteToGoneMs: number[] = [];
    for (const id of agreementIds) {
      const asked = performance.now();
      await call('DELETE', `/agreement/${id}`);
      await until(
        'containers gone',
        async () => ((await containersOf(docker, id)).length === 0 ? true : undefined),
        50,
      );
      deleteToGoneMs.push(Math.round(performance.now() - asked));
    }
    return {
      configuredToRunningMs,
      secretUpdateMs,
      deleteToGoneMs,
      rssMbIdle,
      rssMbWithAgreements,
      agreements: agreementIds.length,
      commandLine,
    };
  } finally {
    if (agentPid) process.kill(agentPid, 'SIGTERM');
    await sleep(1000);
    for (const id of agreementIds) await removeWorkload(docker, id).catch(() => undefined);
    await stopOffline?.();
    await dynamo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function agentWorkloadsMarkdown(f: WorkloadFigures): string {
  const ms = (list: number[]) => `${median(list)} ms (min ${Math.min(...list)}, max ${Math.max(...list)})`;
  return `## Node agent: workloads (bench/agent-workloads.ts)

The shipped \`dist/agent.mjs\` (\`${f.commandLine.replace(/\S*\/(node|agent\.mjs)(?=\s|$)/g, '$1')}\`) with \`HZN_AGENT_POLL_SECONDS=1\`, the real
Exchange (serverless-offline over DynamoDB Local), podman's Docker-compatible service, and a
scripted agbot (lib/protocol) that reads its mailbox every second. Measured on the shared 2-core
machine, so under other load.

| Measure                                                            | Figure |
| ------------------------------------------------------------------ | -----: |
| configured → \`container_running\` (key published, proposal, reply, replyack, pull, start) | ${f.configuredToRunningMs} ms |
| secret update → file changed, median of ${f.secretUpdateMs.length} | ${ms(f.secretUpdateMs)} |
| DELETE /agreement → containers gone, median of ${f.deleteToGoneMs.length} | ${ms(f.deleteToGoneMs)} |
| agent RSS, registered, no agreement | ${f.rssMbIdle} MB |
| agent RSS with ${f.agreements} running agreements (target ≤ ${MEMORY_TARGET_MB} MB) | ${f.rssMbWithAgreements} MB |
`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAgentWorkloadsBench((text) => console.log(`[bench] ${text}`))
    .then((figures) => {
      console.log(JSON.stringify(figures, null, 2));
      console.log(agentWorkloadsMarkdown(figures));
      process.exit(0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}

/** npm run bench: runs and prints the figures when an engine answers at DOCKER_HOST, else says why not. */
export async function printWhenEngine(step: (text: string) => void): Promise<void> {
  const { engineAt } = await import('../agent/workloads/engine.ts');
  try {
    await engineAt(process.env.DOCKER_HOST, 2000).ping();
  } catch {
    step('node agent workloads skipped: no container engine at DOCKER_HOST');
    return;
  }
  step('node agent workloads: configured → running, secret update, DELETE, RSS (bench/agent-workloads.ts)');
  console.log(agentWorkloadsMarkdown(await runAgentWorkloadsBench(step)));
}
