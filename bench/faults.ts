/**
 * Faults survived (issue 37): `npm run bench:faults`. The system of test/e2e/faults.test.ts
 * (test/e2e/support/fault-stack.ts: its own DynamoDB Local with data on disk, serverless-offline,
 * the in-stack agbot, FAULTS_NODES real agents each running one container), at the issue's outage
 * lengths and the agent's default retry pace:
 * 1. DynamoDB Local stopped for FAULTS_DYNAMO_OUTAGE_SECONDS (60) while two clients read and write
 *    the Exchange: the answers by status, then the time from DynamoDB answering again to every
 *    agent's `node_heartbeat_restored`;
 * 2. serverless-offline stopped for FAULTS_EXCHANGE_OUTAGE_SECONDS (600): the time from it
 *    answering again to every agent's restore, and whether any agreement or container changed.
 *
 * The agents poll every FAULTS_POLL_SECONDS (20: the adaptive pace's minimum, a busy node's) and
 * keep their default retry ceiling (HZN_AGENT_RETRY_MAX_SECONDS, 60 s) and container checks (60 s).
 * Needs Java 17, podman's Docker API at DOCKER_HOST and `dist/agent.mjs` (npm run build:agent).
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { busyboxTestImage, reachableEngine } from '../agent/test-support/engine.ts';
import { LABELS } from '../agent/workloads/container-spec.ts';
import { buildFunctions } from '../scripts/exchange-functions-build.ts';
import { type FaultStack, startFaultStack } from '../test/e2e/support/fault-stack.ts';
import { eventually } from '../test/e2e/support/system.ts';

const env = (name: string, fallback: number) => Number(process.env[name] || fallback);
const NODES = env('FAULTS_NODES', 2);
const DYNAMO_OUTAGE_MS = env('FAULTS_DYNAMO_OUTAGE_SECONDS', 60) * 1000;
const EXCHANGE_OUTAGE_MS = env('FAULTS_EXCHANGE_OUTAGE_SECONDS', 600) * 1000;
const POLL_SECONDS = env('FAULTS_POLL_SECONDS', 20);
/** Bounds a failure only: past the agent's retry ceiling and a poll. */
const DEADLINE_MS = 300_000;

async function main(): Promise<void> {
  const docker = await reachableEngine();
  if (!docker) throw new Error('no container engine at DOCKER_HOST (docs/testing.md, "with podman")');
  const buildDir = '.esbuild/bench-faults';
  await buildFunctions(buildDir);
  const stack = await startFaultStack({
    name: 'bench-faults',
    nodes: NODES,
    image: await busyboxTestImage(),
    prebuiltDir: buildDir,
    agentEnv: { HZN_AGENT_POLL_SECONDS: String(POLL_SECONDS), HZN_AGENT_CONTAINER_CHECK_SECONDS: '60' },
  });
  try {
    await run(stack, docker);
  } finally {
    await stack.stop();
    await removeContainers(docker);
    rmSync(buildDir, { recursive: true, force: true });
  }
}

async function run(stack: FaultStack, docker: Docker): Promise<void> {
  const snapshot = async () => {
    const shots: string[] = [];
    for (const agent of stack.agents) {
      const active = (await agent.http('GET', '/agreement')).body.agreements.active as {
        current_agreement_id: string;
      }[];
      const id = active[0]?.current_agreement_id;
      if (active.length !== 1 || !id) return undefined;
      const [container] = await docker.listContainers({
        filters: { label: [`${LABELS.agreementId}=${id}`] },
      });
      if (!container) return undefined;
      const started = (await docker.getContainer(container.Id).inspect()).State.StartedAt;
      shots.push(`${agent.id} ${id} ${container.Id} ${started}`);
    }
    return shots.join('\n');
  };
  const restored = async () => {
    const counts: number[] = [];
    for (const agent of stack.agents) {
      const events = (await agent.http('GET', '/eventlog')).body as { event_code: string }[];
      counts.push(events.filter((e) => e.event_code === 'node_heartbeat_restored').length);
    }
    return counts;
  };
  const caughtUp = async (before: number[]) => {
    await eventually(
      'every agent restored',
      async () => (await restored()).every((count, i) => count > (before[i] ?? 0)),
      DEADLINE_MS,
    );
    return Date.now();
  };
  const before = await eventually('every agent running its agreement', snapshot, DEADLINE_MS);
  console.log(`${NODES} agents running their agreements`);

  // 1. DynamoDB Local stopped under busy clients.
  const statuses = new Map<string, number>();
  let busy = true;
  let n = 0;
  const client = async (write: boolean) => {
    while (busy) {
      n += 1;
      const path = write ? `/v1/orgs/${stack.org}/nodes/busy${n}` : `/v1/orgs/${stack.org}/nodes`;
      const body = {
        name: `busy${n}`,
        token: `busy${n}-token-0123456789`,
        pattern: '',
        publicKey: '',
        arch: 'amd64',
      };
      const key = await stack
        .exchange(write ? 'PUT' : 'GET', path, {
          auth: stack.admin,
          timeoutMs: 35_000,
          ...(write ? { body } : {}),
        })
        .then(
          (r) => String(r.status),
          (e: Error) => `no answer (${e.message})`,
        );
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      await sleep(100);
    }
  };
  let restoredBefore = await restored();
  const clients = [client(false), client(true)];
  const dynamoDown = Date.now();
  await stack.stopDynamo();
  await sleep(Math.max(0, DYNAMO_OUTAGE_MS - (Date.now() - dynamoDown)));
  await stack.startDynamo();
  const dynamoBack = Date.now();
  const dynamoCaughtUp = await caughtUp(restoredBefore);
  busy = false;
  await Promise.all(clients);
  await stack.agbotRound();
  const afterDynamo = await eventually('every agent running its agreement', snapshot, DEADLINE_MS);
  console.log(
    `DynamoDB down ${((dynamoBack - dynamoDown) / 1000).toFixed(1)} s: client answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `every agent caught up ${((dynamoCaughtUp - dynamoBack) / 1000).toFixed(1)} s after it came back; ` +
      `agreements and containers ${afterDynamo === before ? 'unchanged' : `CHANGED:\n${afterDynamo}`}`,
  );

  // 2. The Exchange stopped.
  restoredBefore = await restored();
  const exchangeDown = Date.now();
  await stack.stopExchange();
  await sleep(Math.max(0, EXCHANGE_OUTAGE_MS - (Date.now() - exchangeDown)));
  const during = await snapshot();
  await stack.startExchange();
  const exchangeBack = Date.now();
  const exchangeCaughtUp = await caughtUp(restoredBefore);
  await stack.agbotRound();
  const afterExchange = await eventually('every agent running its agreement', snapshot, DEADLINE_MS);
  console.log(
    `the Exchange down ${((exchangeBack - exchangeDown) / 1000).toFixed(1)} s (its restart included): ` +
      `workloads during the outage ${during === before ? 'unchanged' : 'CHANGED'}; ` +
      `every agent caught up ${((exchangeCaughtUp - exchangeBack) / 1000).toFixed(1)} s after it answered; ` +
      `agreements and containers ${afterExchange === before ? 'unchanged' : `CHANGED:\n${afterExchange}`}`,
  );
}

async function removeContainers(docker: Docker): Promise<void> {
  const ours = await docker
    .listContainers({ all: true, filters: { label: [LABELS.agreementId] } })
    .catch(() => []);
  for (const container of ours.filter((c) => c.Labels[LABELS.serviceName] === 'faults-main'))
    await docker
      .getContainer(container.Id)
      .remove({ force: true })
      .catch(() => undefined);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
