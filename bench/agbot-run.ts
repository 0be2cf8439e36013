import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handler as postChanges } from '#functions/changes/post-changes';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildReply } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { generateMessagingKeys } from '#lib/protocol/keys';
import { bootstrap } from '#tables/bootstrap';
import { tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { maxChangeId } from '#tables/feed/changes';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { exchangeCall, ScriptedNode } from '../agbot/test-support/scripted-node.ts';
import { freePort, waitForPort } from '../scripts/local/ports.ts';
import { startOffline } from '../test/e2e/support/serverless-offline.ts';
import { BENCH_TABLE, ROOT_PASSWORD } from './env.ts';
import { callsPerRequest } from './in-process.ts';
import { median, round } from './stats.ts';

/**
 * The agbot (issue 13's benchmark): the shipped bundle (dist/agbot.mjs) as a child process with a
 * 1 s poll against serverless-offline over DynamoDB Local, and scripted nodes built on
 * lib/protocol. Measures the time from a node becoming configured (its key published) to the
 * proposal in its mailbox; agreements formed per minute when 200 nodes accept at once; the
 * agbot's RSS after them; and what one idle round costs: its Exchange requests (from the agbot's
 * own counter) and the DynamoDB calls of those requests (the handler invoked in-process).
 */
const ORG = 'bench-agbot';
const AGBOT = 'ab';
const TOKEN = 'bench-agbot-token';
const NODES = 200;
const LATENCY_SAMPLES = 5;
const IDLE_ROUNDS = 10;

interface AgbotFigures {
  configuredToProposalMs: number[];
  agreements: number;
  formSeconds: number;
  perMinute: number;
  rssMb: number;
  rssStartMb: number;
  idleRequestsPerRound: number;
  idleDynamoCalls: number;
}

const rssMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
};

export async function runAgbotBench(
  step: (text: string) => void,
  dynamoEndpoint: string,
): Promise<AgbotFigures> {
  await createTableIfMissing(tableName());
  await bootstrap();
  await createOrg(ORG);
  const admin = await createUser(ORG, 'admin', { admin: true });
  const agbotCreds = await createAgbot(ORG, AGBOT, `${ORG}/admin`, { token: TOKEN });

  const build = spawnSync('npm', ['run', '--silent', 'build:agbot'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:agbot failed: ${build.stderr}`);
  step('starting serverless-offline');
  const offline = await startOffline({ dynamoEndpoint, table: BENCH_TABLE, rootPassword: ROOT_PASSWORD });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-agbot-'));
  let child: ChildProcess | undefined;
  try {
    const http = (auth: typeof admin, method: string, path: string, body?: unknown) =>
      exchangeCall(offline.baseUrl, auth, method, path, body);
    const must = async (what: string, answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      if (status >= 300) throw new Error(`${what} → ${status} ${JSON.stringify(body)}`);
    };
    const served = { businessPolOrgid: ORG, businessPol: '*', nodeOrgid: ORG };
    await must('serve', http(agbotCreds, 'POST', `/orgs/${ORG}/agbots/${AGBOT}/businesspols`, served));
    const signer = generateMessagingKeys().privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const deployment = JSON.stringify({
      services: { s: { image: 'busybox:latest', secrets: { token: {} } } },
    });
    const service = {
      label: 'svc',
      url: 'bench.svc',
      version: '1.0.0',
      arch: 'amd64',
      sharable: 'multiple',
      deployment,
      deploymentSignature: signDeployment(deployment, signer),
    };
    await must('service', http(admin, 'POST', `/orgs/${ORG}/services`, service));
    await must('secret', http(admin, 'PUT', `/orgs/${ORG}/secrets/token`, { key: 'k', value: 'v' }));
    const policy = (name: string, group: string) => ({
      label: name,
      service: { name: 'bench.svc', org: ORG, arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
      constraints: [`group == ${group}`],
      secretBinding: [
        {
          serviceOrgid: ORG,
          serviceUrl: 'bench.svc',
          enableNodeLevelSecrets: false,
          secrets: [{ token: 'token' }],
        },
      ],
    });
    await must(
      'policy',
      http(admin, 'POST', `/orgs/${ORG}/business/policies/latency`, policy('latency', 'latency')),
    );

    const port = await freePort();
    child = spawn(process.execPath, ['dist/agbot.mjs'], {
      env: {
        PATH: process.env.PATH,
        HZN_EXCHANGE_URL: `${offline.baseUrl}/v1`,
        HZN_AGBOT_ID: `${ORG}/${AGBOT}`,
        HZN_AGBOT_TOKEN: TOKEN,
        HZN_AGBOT_DATA_DIR: dataDir,
        HZN_AGBOT_POLL_SECONDS: '1',
        HZN_AGBOT_PORT: String(port),
        HZN_AGBOT_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForPort(port, 15_000);
    const status = async () =>
      (await (await fetch(`http://127.0.0.1:${port}/status`)).json()) as {
        rounds: number;
        exchangeRequests: number;
      };
    const agreementsView = async () =>
      (
        (await (await fetch(`http://127.0.0.1:${port}/agreement`)).json()) as {
          agreements: { active: { policy_name: string; state: string }[] };
        }
      ).agreements.active;
    while ((await status()).rounds < 2) await new Promise((r) => setTimeout(r, 200));
    const pid = child.pid as number;
    const rssStartMb = rssMb(pid);

    step(`configured → proposal, ${LATENCY_SAMPLES} nodes one after the other (1 s poll)`);
    const keys = generateMessagingKeys();
    const configuredToProposalMs: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const node = new ScriptedNode(offline.baseUrl, ORG, `lat${i}`, undefined, keys);
      await node.register(admin, { properties: [{ name: 'group', value: 'latency' }] });
      const configured = performance.now();
      await node.waitFor((m) => m.type === 'proposal', 30_000);
      configuredToProposalMs.push(performance.now() - configured);
    }
    step(`configured → proposal: median ${round(median(configuredToProposalMs))} ms`);

    step(`registering ${NODES} scripted nodes`);
    const nodes = Array.from(
      { length: NODES },
      (_, i) => new ScriptedNode(offline.baseUrl, ORG, `bulk${i}`, undefined, keys),
    );
    for (let i = 0; i < nodes.length; i += 10)
      await Promise.all(
        nodes
          .slice(i, i + 10)
          .map((n) => n.register(admin, { properties: [{ name: 'group', value: 'bulk' }] })),
      );
    step(`${NODES} nodes accept at once: policy published, nodes answer every proposal and replyack`);
    const started = performance.now();
    await must('policy', http(admin, 'POST', `/orgs/${ORG}/business/policies/bulk`, policy('bulk', 'bulk')));
    const done = new Set<string>();
    const finalized = async () =>
      (await agreementsView()).filter(
        (a) => a.policy_name === `${ORG}/bulk` && a.state === AGBOT_STATES.finalized,
      ).length;
    const nodeLoop = async (node: ScriptedNode) => {
      for (const received of await node.poll()) {
        const m = received.message;
        if (m.type === 'proposal')
          await node.send(received, buildReply(m.agreementId, true, node.creds.user));
        if (m.type === 'replyack' && m.decision) {
          await node.putAgreement(m.agreementId, { org: ORG, url: 'bench.svc' });
          done.add(node.id);
        }
      }
    };
    const deadline = Date.now() + 600_000;
    while ((await finalized()) < NODES) {
      if (Date.now() > deadline) throw new Error(`only ${await finalized()} agreements in 10 minutes`);
      const pending = nodes.filter((n) => !done.has(n.id));
      for (let i = 0; i < pending.length; i += 20) await Promise.all(pending.slice(i, i + 20).map(nodeLoop));
    }
    const formSeconds = (performance.now() - started) / 1000;
    const rss = rssMb(pid);
    step(`${NODES} agreements in ${round(formSeconds)} s; agbot RSS ${round(rss)} MB`);

    step(`idle rounds: ${IDLE_ROUNDS} rounds with nothing changed`);
    for (const n of nodes) await n.poll(); // the last replyacks' leftovers
    await new Promise((r) => setTimeout(r, 3_000));
    const before = await status();
    while ((await status()).rounds < before.rounds + IDLE_ROUNDS)
      await new Promise((r) => setTimeout(r, 250));
    const after = await status();
    const idleRequestsPerRound =
      (after.exchangeRequests - before.exchangeRequests) / (after.rounds - before.rounds);
    // The idle round's request, in-process: POST /changes by the agbot from the newest change on.
    const from = (await maxChangeId()) + 1;
    const idleDynamoCalls = await callsPerRequest(async () => {
      const result = await invoke(postChanges, {
        auth: agbotCreds,
        path: { organization: ORG },
        body: { changeId: from, maxRecords: 1000 },
      });
      if (result.status !== 201) throw new Error(`POST /changes → ${result.status}`);
    });
    step(`idle round: ${idleRequestsPerRound} Exchange requests, ${idleDynamoCalls} DynamoDB calls`);
    return {
      configuredToProposalMs,
      agreements: NODES,
      formSeconds,
      perMinute: (NODES / formSeconds) * 60,
      rssMb: rss,
      rssStartMb,
      idleRequestsPerRound,
      idleDynamoCalls,
    };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await offline.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The section docs/benchmarks.md gets. */
export function agbotMarkdown(f: AgbotFigures): string {
  return [
    '## Agreement bot (issue 13)',
    '',
    'The shipped `dist/agbot.mjs` as a child process, 1 s poll, against serverless-offline over DynamoDB',
    'Local on this machine; scripted nodes on lib/protocol (the real envelope and messages) answer at',
    'once. The deployment policy binds one secret, so every proposal reads it through the secrets API',
    '(`npx tsx bench/agbot.ts`).',
    '',
    '| Measure | Figure |',
    '| --- | ---: |',
    `| Node configured (key published) → proposal in its mailbox, median of ${f.configuredToProposalMs.length} | ${round(median(f.configuredToProposalMs))} ms (min ${round(Math.min(...f.configuredToProposalMs))}, max ${round(Math.max(...f.configuredToProposalMs))}) |`,
    `| ${f.agreements} nodes accepting at once: policy published → all finalized | ${round(f.formSeconds)} s |`,
    `| Agreements formed per minute | ${Math.round(f.perMinute)} |`,
    `| Agbot RSS after start / after ${f.agreements} agreements | ${round(f.rssStartMb)} MB / ${round(f.rssMb)} MB |`,
    `| Exchange requests of one idle round | ${round(f.idleRequestsPerRound)} |`,
    `| DynamoDB calls of those requests (POST /changes, in-process) | ${round(f.idleDynamoCalls)} |`,
    '',
  ].join('\n');
}
