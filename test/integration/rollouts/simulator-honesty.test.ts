/**
 * The fleet simulator kept honest (issue 36): one simulated node (`FleetNode`, `asTheAgent`, what
 * bench:scale runs by the thousand) and one real agent (in-process, its workers running at the
 * agent's own adaptive pace, podman for its container), registered in one org against one
 * deployment policy, served by the Exchange's handlers over DynamoDB Local, and one agbot (its
 * shared round, standalone store) forming an agreement with each. Both listen on the signal
 * channel (test/support/simulated-signals.ts: the agent over a real WebSocket, the simulated node
 * as bench:scale's do), woken by the stack's stream consumer and dispatcher, which number the
 * change feed before they wake anyone (tables/README.md, "The change feed"). Every request each
 * node makes, from registration until its agreement is finalized and its status written, is
 * recorded (method and route) and compared:
 *
 * - every route the simulator uses is one the agent uses; the agent's other routes are exactly
 *   those named in AGENT_ONLY, each with its reason;
 * - registration: the simulator's requests are the agent's, in the agent's order;
 * - the agreement: the same protocol requests in the same order (woken by "mail now", no feed
 *   read: mailbox read, reply, delete; mailbox read, its agreement row, delete; then the status),
 *   once the agent's polls that found nothing are set aside (named below).
 *
 * Skipped, saying why, when no container engine answers on DOCKER_HOST.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '#lib/json-logger';
import { LOOK_NOW, MAIL_NOW } from '#lib/signals/address';
import { bootstrap } from '#tables/bootstrap';
import { type ExchangeRequest, routeShape, startExchangeHttp } from '#test/support/exchange-http';
import { type SimulatedSignals, startSimulatedSignals } from '#test/support/simulated-signals';
import { startInProcessStreamConsumer } from '#test/support/stream-consumer';
import { type Agent, createAgent } from '../../../agent/agent.ts';
import { busyboxTestImage, reachableEngine } from '../../../agent/test-support/engine.ts';
import { HOST, testConfig } from '../../../agent/test-support/harness.ts';
import { removeWorkload } from '../../../agent/workloads/engine.ts';
import type { StreamReader } from '../../../scripts/local/stream-reader.ts';
import {
  createFleet,
  FLEET_SIGNER_PEM,
  type FleetNode,
  giveMail,
  openAgbot,
  type TestAgbot,
  type TestExchange,
} from './fleet.ts';

const docker = await reachableEngine();
const ORG = 'honest';
const AGENT = { id: 'agent1', token: 'agent1-token-honest' };

const NODE = '/v1/orgs/{}/nodes/{}';
const STEP = {
  ownerPutsNode: `owner PUT ${NODE}`,
  policy: `PUT ${NODE}/policy`,
  feed: 'POST /v1/orgs/{}/changes',
  publicKey: `PATCH ${NODE}`,
  readMail: `GET ${NODE}/msgs`,
  deleteMail: `DELETE ${NODE}/msgs/{}`,
  reply: 'POST /v1/orgs/{}/agbots/{}/msgs',
  agreementRow: `PUT ${NODE}/agreements/{}`,
  status: `PUT ${NODE}/status`,
};
/** The requests of the agreement protocol, compared in order. */
const PROTOCOL = new Set([
  STEP.feed,
  STEP.readMail,
  STEP.deleteMail,
  STEP.reply,
  STEP.agreementRow,
  STEP.status,
]);

/** Routes the agent uses and the simulator need not: outside the simulator's job. */
const AGENT_ONLY: Record<string, string> = {
  'GET /v1/orgs/{}': "the org's heartbeat intervals, for the agent's adaptive poll (its timing)",
  [`GET ${NODE}`]: 'the agent keeps a local copy of its node record (read at start, when the feed names it)',
  [`GET ${NODE}/policy`]: 'the same for its node policy; the simulator only writes its policy',
  [`GET ${NODE}/managementStatus`]: 'node management (agent upgrades), not agreements',
  'GET /v1/orgs/{}/managementpolicies': 'node management (agent upgrades), not agreements',
  'GET /v1/orgs/{}/services':
    "the proposed service's definition (inputs, dependencies) to run it: container work",
};

const seen: ExchangeRequest[] = [];
/** The signals the agent's channel carried, each with where in `seen` it was sent. */
const agentSignals: { message: string; at: number }[] = [];
const waiters = new Set<() => void>();
/** Resolves once `done` holds, checked at each request the Exchange receives; the deadline bounds failure. */
function untilSeen(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`not seen within ${timeoutMs} ms: ${what}`));
    }, timeoutMs);
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      waiters.delete(check);
      resolve();
    };
    waiters.add(check);
  });
}

/** A node's requests as steps: its own, and its owner's `PUT` of its record; `from` on in `seen`. */
const stepsOf = (id: string, from = 0) =>
  seen
    .slice(from)
    .filter(
      (s) =>
        s.caller === `${ORG}/${id}` ||
        (s.caller === `${ORG}/admin` && s.method === 'PUT' && s.path === `/v1/orgs/${ORG}/nodes/${id}`),
    )
    .map((s) => `${s.caller === `${ORG}/${id}` ? '' : 'owner '}${s.method} ${routeShape(s.path)}`);

/** Where in `seen` the agbot's first message to node `id` (its proposal) arrived. */
const proposalAt = (id: string) =>
  seen.findIndex((s) => s.method === 'POST' && s.path === `/v1/orgs/${ORG}/nodes/${id}/msgs`);

/**
 * A node's steps before its proposal (registration), and from it to both its first status and its
 * first mailbox delete after its agreement row. The agent writes its status from its own worker once the
 * container runs, so that status may come before or after it deletes the message it handled.
 */
function phases(id: string): { registration: string[]; agreement?: string[] } {
  const at = proposalAt(id);
  if (at < 0) return { registration: stepsOf(id) };
  const registration = stepsOf(id).slice(0, stepsOf(id).length - stepsOf(id, at).length);
  const after = stepsOf(id, at);
  const row = after.indexOf(STEP.agreementRow);
  const status = row < 0 ? -1 : after.indexOf(STEP.status, row);
  const deleted = row < 0 ? -1 : after.indexOf(STEP.deleteMail, row);
  if (status < 0 || deleted < 0) return { registration };
  return { registration, agreement: after.slice(0, Math.max(status, deleted) + 1) };
}

/**
 * The protocol's requests in order, the agent's idle work set aside: a mailbox read followed by no
 * delete before the next read found nothing (the agent reads at start and whenever the feed names
 * its mailbox, its own replies included), and a feed read not followed by a mailbox read is the
 * agent's poll on its interval, its heartbeat. The status is compared apart: the agent writes it
 * from its own worker once the container runs, which may come before or after the delete.
 */
function protocolSteps(window: string[]): { steps: string[]; status: number } {
  let steps = window.filter((s) => PROTOCOL.has(s));
  steps = steps.filter((s, i) => {
    if (s !== STEP.readMail) return true;
    const next = steps.findIndex((t, j) => j > i && (t === STEP.readMail || t === STEP.deleteMail));
    return next >= 0 && steps[next] === STEP.deleteMail;
  });
  steps = steps.filter((s, i) => s !== STEP.feed || steps[i + 1] === STEP.readMail);
  return {
    steps: steps.filter((s) => s !== STEP.status),
    status: steps.filter((s) => s === STEP.status).length,
  };
}

/** Whether `part` is `whole` with some steps left out, the rest in the same order. */
function inOrderWithin(part: string[], whole: string[]): boolean {
  let at = 0;
  for (const step of whole) if (step === part[at]) at += 1;
  return at === part.length;
}

let exchange: TestExchange;
let consumer: StreamReader | undefined;
let signals: SimulatedSignals | undefined;
let agbot: TestAgbot | undefined;
let agent: Agent | undefined;
let dataDir: string | undefined;

describe.skipIf(!docker)('the simulated node beside a real agent', () => {
  beforeAll(async () => {
    // Reading its stream every 100 ms, so that a node is woken soon after its mail is posted.
    consumer = await startInProcessStreamConsumer({ idlePollMs: 100 });
    await bootstrap();
    const woken = { mail: new Set<string>(), onlyMail: new Set<string>(), mailArrived: new EventEmitter() };
    signals = await startSimulatedSignals((node, signal) => giveMail(woken, node, signal), {
      announce: true,
      onSocketSignal: (message) => agentSignals.push({ message, at: seen.length }),
    });
    const server = await startExchangeHttp({
      fate: (request) => {
        seen.push(request);
        for (const check of [...waiters]) check();
        return 'serve';
      },
    });
    exchange = { baseUrl: server.baseUrl, ...woken, requests: new Map(), close: server.close };
  });
  afterAll(async () => {
    await agent?.stop();
    agbot?.close();
    await exchange?.close();
    await signals?.close();
    await consumer?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    const agreements = seen
      .filter(
        (s) => s.caller === `${ORG}/${AGENT.id}` && s.method === 'PUT' && s.path.includes('/agreements/'),
      )
      .map((s) => s.path.split('/').pop() as string);
    for (const id of new Set(agreements)) await removeWorkload(docker as Docker, id).catch(() => undefined);
  });

  it('makes the agent’s requests, in the agent’s order, from registration to a finalized agreement', async () => {
    const image = await busyboxTestImage();
    const web = { image, command: ['sleep', '600'] };
    const fleet = await createFleet(exchange, ORG, 1, undefined, {
      web,
      asTheAgent: true,
      afterRegister: signals?.connect,
    });
    const sim = fleet.nodes[0] as FleetNode;

    // The real agent, registered as `hzn register` does: its owner creates the node, then the agent.
    const record = { name: AGENT.id, token: AGENT.token, pattern: '', publicKey: '', arch: HOST.arch };
    expect((await fleet.call('PUT', `/orgs/${ORG}/nodes/${AGENT.id}`, record)).status).toBe(201);
    dataDir = mkdtempSync(join(tmpdir(), 'honest-agent-'));
    agent = await createAgent({
      // The agent's adaptive pace, hourly while its channel is open, and its intervals long enough
      // (10 minutes) that no poll on its interval lands in the agreement: what is compared is what
      // the signals have it do. Its other workers run every 300 ms, so its writes go out at once.
      config: testConfig(`${exchange.baseUrl}/v1`, dataDir, {
        pollIntervalMs: 300,
        heartbeat: { minInterval: 600, maxInterval: 3_600, intervalAdjustment: 600 },
      }),
      log: silentLogger,
      host: HOST,
    });
    await agent.start();
    const local = async (method: 'POST' | 'PUT', url: string, payload: object | string) => {
      const text = typeof payload === 'string';
      const res = await agent?.app.inject({
        method,
        url,
        payload,
        ...(text ? { headers: { 'content-type': 'text/plain' } } : {}),
      });
      expect(res?.statusCode, `${method} ${url}: ${res?.body}`).toBeLessThan(300);
    };
    await local('POST', '/node', { id: AGENT.id, organization: ORG, token: AGENT.token, name: AGENT.id });
    await local('POST', '/node/policy', { properties: [{ name: 'fleet', value: ORG }], constraints: [] });
    await local('PUT', '/trust/fleet.pem', FLEET_SIGNER_PEM);
    await local('PUT', '/node/configstate', { state: 'configured' });
    // Findable by the agbot: its key and its policy in the Exchange (pushed by its workers).
    await expect
      .poll(
        async () => {
          const node = (await fleet.call('GET', `/orgs/${ORG}/nodes/${AGENT.id}`)).body?.nodes?.[
            `${ORG}/${AGENT.id}`
          ];
          const policy = (await fleet.call('GET', `/orgs/${ORG}/nodes/${AGENT.id}/policy`)).body;
          return Boolean(node?.publicKey) && JSON.stringify(policy?.properties ?? []).includes(ORG);
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);

    // Registration settled before the agbot proposes: every wake it caused delivered, the simulated
    // node's answered, and the agent's poll on its last "look now" made. So no registration poll
    // lands among the agreement's requests, whatever the machine's pace.
    await consumer?.settled();
    await fleet.act();
    const lastLook = [...agentSignals].reverse().find((s) => s.message === LOOK_NOW);
    if (lastLook)
      await untilSeen(
        () => stepsOf(AGENT.id, lastLook.at).includes(STEP.feed),
        'the agent polling on its last signal',
      );

    agbot = await openAgbot(exchange, ORG, 'sqlite');
    await fleet.publish(['1.0.0']);
    const agentSteps = () => stepsOf(AGENT.id);
    const agentFinalized = () => agentSteps().includes(STEP.agreementRow);
    // Rounds, each node answering when the channel wakes it (waited for: every message posted to
    // it deleted, which both do once handled), until both are finalized.
    const answering = fleet.answerContinuously();
    const handledAll = (id: string) => {
      const posted = seen.filter((s) => s.method === 'POST' && s.path === `/v1/orgs/${ORG}/nodes/${id}/msgs`);
      return stepsOf(id).filter((s) => s === STEP.deleteMail).length >= posted.length;
    };
    for (let round = 0; !(sim.running && agentFinalized()); round++) {
      if (round === 10) throw new Error('no agreement with both nodes after 10 rounds');
      await agbot.round();
      await untilSeen(() => handledAll(AGENT.id) && handledAll(sim.id), 'both nodes handling their mail');
    }
    await answering.stop();
    await untilSeen(
      () => phases(AGENT.id).agreement !== undefined,
      "the agent's status and its delete after its agreement",
    );

    const report = `simulator:\n  ${stepsOf(sim.id).join('\n  ')}\nagent:\n  ${stepsOf(AGENT.id).join('\n  ')}`;
    const routes = (steps: string[]) => new Set(steps.map((s) => s.replace(/^owner /, '')));
    const simRoutes = routes(stepsOf(sim.id));
    const agentRoutes = routes(stepsOf(AGENT.id));

    // Every route the simulator uses is one the agent uses; the agent's others are those named.
    expect(
      [...simRoutes].filter((r) => !agentRoutes.has(r)),
      report,
    ).toEqual([]);
    expect([...agentRoutes].filter((r) => !simRoutes.has(r)).sort(), report).toEqual(
      Object.keys(AGENT_ONLY).sort(),
    );

    // Registration (before the proposal): the same kinds of requests, the simulator's in the
    // agent's order. The agent writes its policy and its record more than once (POST /node, then
    // the user's policy and configstate each push a change), polls the feed at start and when its
    // channel opens, and reads its mailbox at start (mail sent while it was down); the simulator
    // writes each once, reads its feed once, opens its channel and reads the feed again when its
    // own registration's rows wake it (with its mailbox, as the agent reads it on such a wake).
    const sim_ = phases(sim.id);
    const agent_ = phases(AGENT.id);
    const withoutMailReads = (steps: string[]) => steps.filter((s) => s !== STEP.readMail);
    const agentRegistration = withoutMailReads(
      agent_.registration.filter((s) => !(s.replace(/^owner /, '') in AGENT_ONLY)),
    );
    const simRegistration = withoutMailReads(sim_.registration);
    expect(simRegistration, report).toEqual([
      ...[STEP.ownerPutsNode, STEP.policy, STEP.feed, STEP.publicKey],
      STEP.feed,
    ]);
    expect(new Set(simRegistration), report).toEqual(new Set(agentRegistration));
    expect(inOrderWithin(simRegistration, agentRegistration), report).toBe(true);

    // Woken by "mail now" for the proposal and the replyack, neither reads its feed: the agent's
    // channel carried only "mail now" from the proposal on.
    const proposal = proposalAt(AGENT.id);
    expect(
      agentSignals.filter((s) => s.at > proposal).map((s) => s.message),
      report,
    ).toEqual([MAIL_NOW, MAIL_NOW]);
    expect(
      [sim_.agreement, agent_.agreement].map((steps) => steps?.includes(STEP.feed)),
      report,
    ).toEqual([false, false]);

    // The agreement: the same protocol requests in the same order, one status write after the row.
    const simProtocol = protocolSteps(sim_.agreement ?? []);
    const agentProtocol = protocolSteps(agent_.agreement ?? []);
    expect(simProtocol.steps, report).toEqual(agentProtocol.steps);
    expect(agentProtocol.steps, report).toEqual([
      ...[STEP.readMail, STEP.reply, STEP.deleteMail],
      ...[STEP.readMail, STEP.agreementRow, STEP.deleteMail],
    ]);
    expect([simProtocol.status, agentProtocol.status], report).toEqual([1, 1]);
  });
});
