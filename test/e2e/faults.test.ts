import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENT_MS } from '#test/support/deadlines';
import type { HttpResult } from '#test/support/http';
import { busyboxTestImage, reachableEngine } from '../../agent/test-support/engine.ts';
import { LABELS } from '../../agent/workloads/container-spec.ts';
import { type FaultStack, startFaultStack } from './support/fault-stack.ts';
import { eventually } from './support/system.ts';

/**
 * Faults survived (issue 37, docs/operations.md "When DynamoDB or the Exchange is down"), on real
 * components: this file's own DynamoDB Local, serverless-offline, the in-stack agbot and two real
 * agents, each running one container of its agreement.
 *
 * - DynamoDB stopped while clients write and read: every answer is a 200/201 or a 503 with a JSON
 *   `{code, msg}` (never a 500, never a hang); a write answered 503 left its node whole or absent;
 *   back, every agent catches up (one `node_heartbeat_restored`), with the same agreement (none
 *   added, on either side, after agbot rounds) and the same container (not restarted).
 * - The Exchange stopped: the containers keep running, each agent records one failure and one
 *   restore (its event log does not grow with the outage), and keeps its agreement.
 *
 * DynamoDB stays down until every agent and both clients have met it. The Exchange's outage is
 * a setting (FAULTS_EXCHANGE_OUTAGE_MS), short here with the agent's retry interval shortened to
 * match (HZN_AGENT_RETRY_MAX_SECONDS 1 s against its 60 s default: as many retries as a 10-minute
 * outage at the default pace): the retries it holds are what shows that nothing piles up, and an
 * agent's retries are not visible from outside it. Deadlines only bound a failure. The recovery
 * times it prints are `npm run bench:faults`'s figures at the issue's lengths.
 */
const docker = await reachableEngine();
const NODES = 2;
const EXCHANGE_OUTAGE_MS = Number(process.env.FAULTS_EXCHANGE_OUTAGE_MS ?? 6000);

interface Snapshot {
  agreement: string;
  container: string;
  startedAt: string;
}

describe.skipIf(!docker)('faults: DynamoDB down, the Exchange down', () => {
  let stack: FaultStack;
  const engine = () => docker as Docker;
  let before: Snapshot[] = [];

  /** Each agent's active agreement and its running container. */
  async function snapshot(): Promise<Snapshot[] | undefined> {
    const shots: Snapshot[] = [];
    for (const agent of stack.agents) {
      const { active } = (await agent.http('GET', '/agreement')).body.agreements as {
        active: { current_agreement_id: string }[];
      };
      if (active.length !== 1 || !active[0]?.current_agreement_id) return undefined;
      const id = active[0].current_agreement_id;
      const containers = await engine().listContainers({
        all: true,
        filters: { label: [`${LABELS.agreementId}=${id}`] },
      });
      if (containers.length !== 1 || containers[0]?.State !== 'running') return undefined;
      const inspected = await engine().getContainer(containers[0].Id).inspect();
      shots.push({ agreement: id, container: containers[0].Id, startedAt: inspected.State.StartedAt });
    }
    return shots;
  }

  const events = async (code: string) => {
    const counts: number[] = [];
    for (const agent of stack.agents) {
      const all = (await agent.http('GET', '/eventlog')).body as { event_code: string }[];
      counts.push(all.filter((e) => e.event_code === code).length);
    }
    return counts;
  };
  const eventTotal = async () => {
    let total = 0;
    for (const agent of stack.agents)
      total += ((await agent.http('GET', '/eventlog')).body as unknown[]).length;
    return total;
  };
  const agbotAgreements = async () =>
    (await stack.exchange('GET', '/v1/orgs/IBM/agbots/agbot/agreements', { auth: stack.root })).body
      .agreements as Record<string, unknown>;

  /** Waits until every agent counts `n` events of `code`; answers when the last one did. */
  const everyAgentHas = (code: string, n: number, what: string) =>
    eventually(
      what,
      async () => ((await events(code)).every((count) => count >= n) ? Date.now() : undefined),
      EVENT_MS,
    );

  /** Agreements and containers are those of `before`, on the agents and in the agbot. */
  async function expectUnchanged(): Promise<void> {
    const after = await eventually('every agent running its agreement', snapshot, EVENT_MS);
    expect(after, 'agreements and containers (ids, start times)').toEqual(before);
    expect(Object.keys(await agbotAgreements()).sort()).toEqual(before.map((s) => s.agreement).sort());
  }

  beforeAll(async () => {
    stack = await startFaultStack({
      name: 'faults',
      nodes: NODES,
      image: await busyboxTestImage(),
      prebuiltDir: inject('exchangeBuildDir'),
      agentEnv: { HZN_AGENT_RETRY_MAX_SECONDS: '1' },
    });
    before = await eventually('every agent running its agreement', snapshot, 240_000);
    // The agbot has nothing more to do for them.
    await stack.agbotRound();
  });

  afterAll(async () => {
    await stack?.stop();
    const ours = await engine()
      .listContainers({ all: true, filters: { label: [LABELS.agreementId] } })
      .catch(() => []);
    for (const container of ours.filter((c) => c.Labels[LABELS.serviceName] === 'faults-main'))
      await engine()
        .getContainer(container.Id)
        .remove({ force: true })
        .catch(() => undefined);
  }, 60_000);

  it('DynamoDB stopped: 503s with a JSON body, nothing half-written, every agent catches up', async () => {
    const { exchange, admin, org } = stack;
    const answers: { request: string; result?: HttpResult; error?: string }[] = [];
    let busy = true;
    let n = 0;
    const client = async (kind: 'read' | 'write') => {
      while (busy) {
        n += 1;
        const id = `busy${n}`;
        const request = kind === 'read' ? `GET /v1/orgs/${org}/nodes` : `PUT /v1/orgs/${org}/nodes/${id}`;
        try {
          const result =
            kind === 'read'
              ? await exchange('GET', `/v1/orgs/${org}/nodes`, { auth: admin, timeoutMs: 35_000 })
              : await exchange('PUT', `/v1/orgs/${org}/nodes/${id}`, {
                  auth: admin,
                  body: {
                    name: id,
                    token: `${id}-token-0123456789`,
                    pattern: '',
                    publicKey: '',
                    arch: 'amd64',
                  },
                  timeoutMs: 35_000,
                });
          answers.push({ request, result });
        } catch (error) {
          answers.push({ request, error: (error as Error).message });
        }
        // A client's pace (about 10 requests a second each), not a wait for anything.
        await sleep(100);
      }
    };
    const clients = [client('read'), client('write')];
    const down = Date.now();
    await stack.stopDynamo();
    const answersBefore = answers.length;
    // Down until every agent and both clients have met it (the outage's length is bench:faults's).
    await everyAgentHas('node_heartbeat_failed', 1, 'every agent seeing the outage');
    await eventually(
      'both clients answered 503',
      async () => answers.slice(answersBefore).filter((a) => a.result?.status === 503).length >= 2,
      EVENT_MS,
    );
    // The agbot's scheduled round meets the outage too.
    await stack.agbotRound().catch(() => undefined);
    await stack.startDynamo();
    const back = Date.now();
    const caughtUp = await everyAgentHas('node_heartbeat_restored', 1, 'every agent catching up');
    busy = false;
    await Promise.all(clients);
    console.log(
      `DynamoDB down ${back - down} ms; every agent caught up ${caughtUp - back} ms after it came back; ` +
        `${answers.length} client requests, ${answers.filter((a) => a.result?.status === 503).length} answered 503`,
    );

    const wrong = answers.filter(
      (a) => a.error !== undefined || ![200, 201, 503].includes(a.result?.status ?? 0),
    );
    expect(
      wrong.map((a) => `${a.request}: ${a.error ?? `${a.result?.status} ${a.result?.text}`}`),
      'answers other than 200, 201 or 503 (a 500, or no answer)',
    ).toEqual([]);
    for (const answer of answers.filter((a) => a.result?.status === 503))
      expect(answer.result?.body, answer.request).toEqual({
        code: 'database-connection-error',
        msg: expect.any(String),
      });
    // A node whose PUT answered 503 is absent, or whole: its record and its credentials.
    const refused = answers
      .filter((a) => a.result?.status === 503 && a.request.startsWith('PUT'))
      .map((a) => a.request.split('/').pop() as string);
    expect(refused.length, 'writes answered 503').toBeGreaterThan(0);
    // One node at a time, each read again while it answers 503: DynamoDB Local, just started
    // again beside a loaded machine, may outlast the 4 s bound of a call for a while.
    const read = (id: string, auth: { user: string; secret: string }) =>
      eventually(
        `GET node ${id} answered`,
        async () => {
          const answer = await exchange('GET', `/v1/orgs/${org}/nodes/${id}`, { auth });
          return answer.status === 503 ? undefined : answer.status;
        },
        EVENT_MS,
      );
    const halves: (string | undefined)[] = [];
    for (const id of refused) {
      const record = await read(id, admin);
      const asNode = await read(id, { user: `${org}/${id}`, secret: `${id}-token-0123456789` });
      const whole = record === 404 ? [404, 401] : [200, 200];
      halves.push(
        [record, asNode].join() === whole.join()
          ? undefined
          : `${id}: record ${record}, its own credentials ${asNode}`,
      );
    }
    expect(halves.filter(Boolean), 'nodes half-written').toEqual([]);
    // No agreement added by the agbot's rounds after the outage, no container restarted.
    await stack.agbotRound();
    await stack.agbotStream()?.settled();
    await expectUnchanged();
  }, 400_000);

  it('the Exchange stopped: workloads keep running, nothing piles up, one re-sync when it is back', async () => {
    const eventsBefore = await eventTotal();
    const failedBefore = await events('node_heartbeat_failed');
    const restoredBefore = await events('node_heartbeat_restored');
    const down = Date.now();
    await stack.stopExchange();
    await everyAgentHas(
      'node_heartbeat_failed',
      Math.max(...failedBefore) + 1,
      'every agent seeing the outage',
    );
    const left = EXCHANGE_OUTAGE_MS - (Date.now() - down);
    if (left > 0) await sleep(left);
    // While it is down, every workload still runs, in its own container.
    expect(await snapshot(), 'agreements and containers while the Exchange is down').toEqual(before);
    await stack.startExchange();
    const back = Date.now();
    const caughtUp = await everyAgentHas(
      'node_heartbeat_restored',
      Math.max(...restoredBefore) + 1,
      'every agent catching up',
    );
    console.log(
      `the Exchange down ${back - down} ms (restart included); every agent caught up ${caughtUp - back} ms after it answered`,
    );
    // One failure and one restore each: nothing recorded per failed round.
    expect(await events('node_heartbeat_failed')).toEqual(failedBefore.map((c) => c + 1));
    expect(await events('node_heartbeat_restored')).toEqual(restoredBefore.map((c) => c + 1));
    expect(await eventTotal(), "the agents' event logs").toBeLessThanOrEqual(eventsBefore + 2 * NODES);
    await stack.agbotRound();
    await expectUnchanged();
  }, 400_000);
});
