/**
 * A fleet of scripted nodes and one agbot over the in-process Exchange, for the rollout tests
 * (docs/rollouts.md): the agbot's shared round (`protocolRound`) runs on a store of either kind,
 * its clock a test setting; between rounds (`act`), or continuously while the rounds run
 * (`answerContinuously`, bench:scale), every node that got mail answers as the agent would
 * (docs/agent.md, "Status reported to the Exchange"): it accepts each proposal, records the
 * agreement on the replyack and writes its node status; a version scripted `broken` exits at once
 * (the status shows it exited, the node cancels with 103), a node scripted `silent` never answers.
 */
import { generateKeyPairSync } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { createLogger } from '#lib/json-logger';
import { buildCancel, buildReply } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { generateMessagingKeys } from '#lib/protocol/keys';
import type { Proposal } from '#lib/protocol/messages';
import { readProposal } from '#lib/protocol/parse-message';
import { REASON } from '#lib/protocol/reason-codes';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { bootstrap } from '#tables/bootstrap';
import { tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { type ExchangeRequest, startExchangeHttp } from '#test/support/exchange-http';
import { createAgbot, createOrg, createUser } from '#test/support/identities';
import { loadAgbotConfig } from '../../../agbot/config.ts';
import { agbotExchange } from '../../../agbot/exchange.ts';
import { openRoundContext, roundSettings } from '../../../agbot/round-context.ts';
import type { RoundContext } from '../../../agbot/rounds/context.ts';
import { protocolRound } from '../../../agbot/rounds/round.ts';
import { SqliteAgbotStore } from '../../../agbot/store/sqlite-store.ts';
import {
  type Credentials,
  exchangeCall,
  type Received,
  ScriptedNode,
} from '../../../agbot/test-support/scripted-node.ts';

export type StoreKind = 'sqlite' | 'dynamo';
/**
 * What a node does with a version: runs it; runs it and it exits at once (103); never answers
 * (offline); runs it and then its user ends the agreement (105, neutral).
 */
export type Behaviour = 'good' | 'broken' | 'silent' | 'neutral';

const SERVICE = 'web';
const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signer = signing.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
/** The key that verifies the fleet's deployment signatures: what a real agent beside it trusts. */
export const FLEET_SIGNER_PEM = signing.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const nodeKeys = generateMessagingKeys();

/**
 * The in-process Exchange's settings for this file: config/exchange.json with `settings` over it,
 * as EXCHANGE_CONFIG_FILE (lib/config.ts). Call before `startExchange`; the answer puts the
 * previous file back. For a fleet whose rounds outlast `authCacheSeconds` (60 s), a longer one
 * keeps each node's identity remembered instead of read again at every round it answers (its
 * token is hashed once an hour either way: `authVerifiedSeconds`).
 */
export function exchangeSettings(settings: Record<string, unknown>): () => void {
  const previous = process.env.EXCHANGE_CONFIG_FILE;
  const dir = mkdtempSync(join(tmpdir(), 'rollout-exchange-'));
  const file = join(dir, 'exchange.json');
  const base = JSON.parse(readFileSync(previous ?? join(process.cwd(), 'config', 'exchange.json'), 'utf8'));
  writeFileSync(file, JSON.stringify({ ...base, ...settings }));
  process.env.EXCHANGE_CONFIG_FILE = file;
  return () => {
    if (previous === undefined) delete process.env.EXCHANGE_CONFIG_FILE;
    else process.env.EXCHANGE_CONFIG_FILE = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}

export interface TestExchange {
  /** Without `/v1`. */
  baseUrl: string;
  /** Nodes (`org/id`) with a message to read, in the order their mail arrived (a Set keeps it). */
  mail: Set<string>;
  /** Of those, the nodes woken only by "mail now" since their last pass: they skip the feed read. */
  onlyMail: Set<string>;
  /** Requests served, by `METHOD path`. */
  requests: Map<string, number>;
  /** Emits `mail` each time a node is added to `mail` (startExchange's; an Exchange built by hand may have none). */
  mailArrived?: EventEmitter;
  close: () => Promise<void>;
}

/**
 * `node` (`org/id`) has something to read: its mail, and the event the answering workers wait on.
 * `signal` is what woke it: "mail now" (only its mailbox has something: it reads its mailbox
 * without a feed read, as the agent does) or "look now" (it reads its feed first).
 */
export function giveMail(
  exchange: Pick<TestExchange, 'mail' | 'mailArrived' | 'onlyMail'>,
  node: string,
  signal: 'look' | 'mail' = 'look',
): void {
  if (signal === 'look') exchange.onlyMail.delete(node);
  else if (!exchange.mail.has(node)) exchange.onlyMail.add(node);
  exchange.mail.add(node);
  exchange.mailArrived?.emit('mail');
}

/**
 * The Exchange of this file: its table and every family's handlers behind an in-process server.
 * A node has mail once a message posted to it is answered, unless `mailOnPost` is false: then
 * whoever wakes nodes adds to `mail` (bench:scale's simulated signal channel).
 */
export async function startExchange(options: { mailOnPost?: boolean } = {}): Promise<TestExchange> {
  await createTableIfMissing(tableName(), { stream: false });
  await bootstrap();
  const mail = new Set<string>();
  const onlyMail = new Set<string>();
  const mailArrived = new EventEmitter();
  const requests = new Map<string, number>();
  const server = await startExchangeHttp({
    fate: (request: ExchangeRequest) => {
      const key = `${request.method} ${request.path}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      return 'serve';
    },
  });
  const port = Number(new URL(server.baseUrl).port);
  // A message posted to a node: that node has something to read once the POST is answered. `fate`
  // runs before the handler, when the message is not stored yet: a node answering its mail at
  // once (answerContinuously) would read its mailbox too early and lose the signal.
  const answered = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (request.socket.localPort !== port || request.method !== 'POST' || response.statusCode >= 300) return;
    const to = /^\/v1\/orgs\/([^/]+)\/nodes\/([^/?]+)\/msgs(\?|$)/.exec(request.url ?? '');
    if (to) giveMail({ mail, mailArrived, onlyMail }, `${to[1]}/${to[2]}`);
  };
  const mailOnPost = options.mailOnPost ?? true;
  if (mailOnPost) subscribe('http.server.response.finish', answered);
  const close = async () => {
    if (mailOnPost) unsubscribe('http.server.response.finish', answered);
    await server.close();
  };
  return { baseUrl: server.baseUrl, mail, onlyMail, mailArrived, requests, close };
}

interface Running {
  agreementId: string;
  version: string;
}

export class FleetNode extends ScriptedNode {
  /** The agreement it holds (accepted, replyack seen), and what it runs under it. */
  running?: Running;
  /** Every version it ever ran (the test checks that nobody outside the canary ran the target). */
  readonly ran: string[] = [];
  /** This node's behaviour per version, over the fleet's. */
  readonly script = new Map<string, Behaviour>();
  private created = 1;
  private pending = new Map<string, string>();
  /**
   * Every request the agent makes (bench:scale): its heartbeat at registration is the change feed's
   * read (`POST /changes`, as the agent's poll), not `POST …/heartbeat`; woken, it reads the feed
   * before its mailbox; it deletes a message after handling it, not on reading it (the agent's
   * at-least-once handling). test/integration/rollouts/simulator-honesty.test.ts compares these
   * requests with a real agent's. The rollout tests leave them out: they prove the agbot's steps.
   * Set it before `register` (createFleet's `asTheAgent`).
   */
  asTheAgent = false;
  private changeId = 0;

  /**
   * Answers what it received (the agent's protocol, docs/agent.md): one pass. As the agent, it
   * reads its feed first, unless it was woken only by "mail now" (`readFeed` false).
   */
  async act(fleet: Pick<Fleet, 'org' | 'behaviour'>, options: { readFeed?: boolean } = {}): Promise<void> {
    if (this.asTheAgent && options.readFeed !== false) await this.readFeed();
    for (const received of await this.poll(!this.asTheAgent)) {
      const after = await this.handle(fleet, received);
      if (this.asTheAgent) await this.deleteMessage(received.msgId);
      // What the agent reports once the workload ran (its status), after the message was handled.
      await after?.();
    }
  }

  /** One message's protocol step; answers what follows once the workload started, if anything. */
  private async handle(
    fleet: Pick<Fleet, 'org' | 'behaviour'>,
    received: Received,
  ): Promise<(() => Promise<void>) | undefined> {
    const m = received.message;
    if (m.type === 'proposal') {
      const version = readProposal(m as Proposal).terms.workloads?.[0]?.version ?? '';
      if (this.behaviour(fleet, version) === 'silent') return;
      this.pending.set(m.agreementId, version);
      await this.send(received, buildReply(m.agreementId, true, this.creds.user));
    } else if (m.type === 'replyack' && m.decision) {
      const version = this.pending.get(m.agreementId);
      if (version === undefined) return;
      this.pending.delete(m.agreementId);
      await this.putAgreement(m.agreementId, { org: fleet.org, url: SERVICE }, 'Finalized Agreement');
      this.running = { agreementId: m.agreementId, version };
      this.ran.push(version);
      const behaviour = this.behaviour(fleet, version);
      return async () => {
        await this.writeStatus(behaviour === 'broken' ? 'exited' : 'running');
        // The agent's governance sees fewer running containers than services: 103.
        if (behaviour === 'broken') await this.cancel(received, REASON.serviceTerminated);
        if (behaviour === 'neutral') await this.cancel(received, REASON.userRequested);
      };
    } else if (m.type === 'cancel' && this.running?.agreementId === m.agreementId) {
      await this.dropAgreement();
    }
  }

  /** The agent's heartbeat is its feed read; the rollout tests' nodes send `POST …/heartbeat`. */
  protected override async heartbeat(): Promise<void> {
    if (!this.asTheAgent) return super.heartbeat();
    // A feed still numbering a burst of registrations answers 503 (retry later), as the agent's poll retries.
    for (let attempt = 0; attempt < 5; attempt++) if (await this.readFeed()) return;
    throw new Error(`${this.id}: the change feed refused its first read`);
  }

  /** The agent's `POST /orgs/{org}/changes`: its heartbeat and what changed since its last read. */
  async readFeed(): Promise<boolean> {
    const answer = await exchangeCall(this.baseUrl, this.creds, 'POST', `/orgs/${this.org}/changes`, {
      changeId: this.changeId,
      maxRecords: 1000,
    });
    const newest = Number(answer.body?.mostRecentChangeId);
    // The Exchange answers 201 (upstream's status for this POST): a reader that took only 200 for
    // an answer never moved its cursor and read the feed from its start each time.
    const ok = answer.status === 200 || answer.status === 201;
    if (ok && Number.isInteger(newest)) this.changeId = newest + 1;
    return ok;
  }

  behaviour(fleet: Pick<Fleet, 'behaviour'>, version: string): Behaviour {
    return this.script.get(version) ?? fleet.behaviour(version);
  }

  /** The node ends its agreement itself (the agent's cancel, step 9 of docs/agent.md). */
  async cancel(to: { agbotId: string; agbotPubKey: string }, reason: number): Promise<void> {
    const agreementId = this.running?.agreementId;
    if (!agreementId) return;
    await this.dropAgreement();
    await this.send(to, buildCancel(agreementId, reason));
  }

  private async dropAgreement(): Promise<void> {
    const agreementId = this.running?.agreementId;
    if (!agreementId) return;
    this.running = undefined;
    await exchangeCall(this.baseUrl, this.creds, 'DELETE', `${this.path}/agreements/${agreementId}`);
    await this.writeStatus();
  }

  /** The node status as the agent reports it (`PUT …/status`, upstream's shape). */
  async writeStatus(state?: string): Promise<void> {
    const services = this.running
      ? [
          {
            agreementId: this.running.agreementId,
            serviceUrl: SERVICE,
            orgid: this.org,
            version: this.running.version,
            arch: 'amd64',
            containerStatus: [
              { name: `/${this.running.agreementId}-web`, image: 'busybox', created: this.created++, state },
            ],
          },
        ]
      : [];
    const answer = await exchangeCall(this.baseUrl, this.creds, 'PUT', `${this.path}/status`, { services });
    if (answer.status !== 201) throw new Error(`status of ${this.id}: ${answer.status}`);
  }
}

export interface Fleet {
  org: string;
  admin: Credentials;
  nodes: FleetNode[];
  /** The scripted behaviour of each version (default good). */
  behaviour(version: string): Behaviour;
  versions: Map<string, Behaviour>;
  call(method: string, path: string, body?: unknown): ReturnType<typeof exchangeCall>;
  /** Sets the policy's versions, best first. */
  publish(versions: string[]): Promise<void>;
  /** Every node with mail answers it, a few side by side; resolves once all have. */
  act(): Promise<void>;
  /**
   * The nodes answer their mail as it arrives, until `stop`, as agents woken by a signal do while
   * the agbot's round is still proposing (bench:scale). `afterPass` is told after each node's pass.
   */
  answerContinuously(afterPass?: () => void): Answering;
  /** Node passes that failed at the network and are tried again later (`retryNetworkErrors`). */
  networkErrors: number;
}

/** The fleet answering its mail continuously (`Fleet.answerContinuously`). */
export interface Answering {
  /** Lets the passes under way finish, then stops; rejects with the first pass that failed. */
  stop(): Promise<void>;
  /** The first pass that failed, if any: every worker stopped at it. */
  readonly failure: unknown;
}

/** How many nodes answer side by side, as a fleet does. */
const SIDE_BY_SIDE = 16;

/** A request that got no answer (a connection reset or refused), as `fetch` reports it. */
const isNetworkError = (error: unknown) => error instanceof TypeError && error.message === 'fetch failed';

/** An org with an admin, an agbot serving its policies, `count` nodes and the policy `web` on `versions[0]`. */
export async function createFleet(
  exchange: TestExchange,
  org: string,
  count: number,
  /** More node policy properties of the i-th node. */
  properties: (i: number) => { name: string; value: unknown }[] = () => [],
  options: {
    /** The service's container: a real agent beside the fleet runs it (`busyboxTestImage()`, a command). */
    web?: { image: string; command?: string[] };
    /** Every node makes the agent's requests (`FleetNode.asTheAgent`), from its registration on. */
    asTheAgent?: boolean;
    /**
     * A node's pass that gets no answer at the network is tried again at the next `act`, as the
     * agent tries again at its next poll (bench:scale, whose hours-long run one reset would end).
     * Tests leave it off: there a lost answer is a failure.
     */
    retryNetworkErrors?: boolean;
    /** Told how many nodes are registered, after each batch (a long benchmark's progress). */
    onRegistered?: (registered: number) => void;
    /** What each node does once registered, before it counts as such (bench:scale: open its signal channel). */
    afterRegister?: (node: FleetNode) => Promise<void>;
  } = {},
): Promise<Fleet> {
  const web = options.web ?? { image: 'busybox:latest' };
  await createOrg(org);
  const admin = await createUser(org, 'admin', { admin: true });
  await createAgbot(org, 'ab', `${org}/admin`, { token: 'ab-token' });
  await insertAgbotPolicy({
    org,
    id: 'ab',
    policyId: `${org}_*_${org}`,
    businessPolOrgid: org,
    businessPol: '*',
    nodeOrgid: org,
    lastUpdated: new Date().toISOString(),
  });
  const call = (method: string, path: string, body?: unknown) =>
    exchangeCall(exchange.baseUrl, admin, method, path, body);
  const versions = new Map<string, Behaviour>();
  const deployment = JSON.stringify({ services: { web } });
  const signature = signDeployment(deployment, signer);
  const published = new Set<string>();
  const nodes = Array.from(
    { length: count },
    (_, i) => new FleetNode(exchange.baseUrl, org, `n${String(i).padStart(3, '0')}`, undefined, nodeKeys),
  );
  for (const node of nodes) node.asTheAgent = options.asTheAgent === true;
  // A few at a time, as a fleet registers side by side.
  for (let i = 0; i < count; i += 16)
    await Promise.all(
      nodes.slice(i, i + 16).map(async (node, j) => {
        await node.register(admin, { properties: [{ name: 'fleet', value: org }, ...properties(i + j)] });
        await options.afterRegister?.(node);
      }),
    ).then(() => options.onRegistered?.(Math.min(i + 16, count)));
  const byId = new Map(nodes.map((n) => [`${org}/${n.id}`, n]));
  const fleet: Fleet = {
    org,
    admin,
    nodes,
    versions,
    behaviour: (version) => versions.get(version) ?? 'good',
    call,
    async publish(wanted) {
      for (const version of wanted) {
        if (published.has(version)) continue;
        published.add(version);
        const service = {
          label: SERVICE,
          url: SERVICE,
          version,
          arch: 'amd64',
          sharable: 'multiple',
          deployment,
          deploymentSignature: signature,
        };
        const put = await call('POST', `/orgs/${org}/services`, service);
        if (put.status !== 201) throw new Error(`service ${version}: ${put.status}`);
      }
      const policy = {
        label: SERVICE,
        service: {
          name: SERVICE,
          org,
          arch: 'amd64',
          serviceVersions: wanted.map((version, i) => ({ version, priority: { priority_value: i + 1 } })),
          // Nodes heartbeat once, at registration, and the tests move the agbot's clock: no 208.
          nodeHealth: { missing_heartbeat_interval: 86_400, check_agreement_status: 86_400 },
        },
        constraints: [`fleet == ${org}`],
      };
      const path = `/orgs/${org}/business/policies/${SERVICE}`;
      const put = await call('PUT', path, policy);
      if (put.status === 404) {
        const post = await call('POST', path, policy);
        if (post.status !== 201) throw new Error(`policy: ${post.status} ${JSON.stringify(post.body)}`);
      } else if (put.status !== 201) throw new Error(`policy: ${put.status} ${JSON.stringify(put.body)}`);
    },
    networkErrors: 0,
    async act() {
      const due = [...exchange.mail].filter((n) => byId.has(n));
      for (const n of due) exchange.mail.delete(n);
      for (let i = 0; i < due.length; i += SIDE_BY_SIDE)
        await Promise.all(due.slice(i, i + SIDE_BY_SIDE).map(pass));
    },
    answerContinuously: (afterPass = () => {}) => answerContinuously(exchange, byId, pass, afterPass),
  };
  /**
   * One node answers its mail. A pass that got no answer at the network gives the mail back: the
   * next `act`, or the next free worker, tries it again.
   */
  const pass = async (n: string) => {
    const readFeed = !exchange.onlyMail.delete(n);
    try {
      await byId.get(n)?.act(fleet, { readFeed });
    } catch (error) {
      if (!options.retryNetworkErrors || !isNetworkError(error)) throw error;
      fleet.networkErrors += 1;
      exchange.mail.add(n);
    }
  };
  return fleet;
}

/**
 * SIDE_BY_SIDE workers, each taking the node that has waited longest for mail (`exchange.mail`
 * keeps arrival order) and not answering already: mail that arrives for a node during its pass
 * has it taken again after. A worker with nothing to take waits for the Exchange's `mail` event.
 */
function answerContinuously(
  exchange: TestExchange,
  nodes: ReadonlyMap<string, unknown>,
  pass: (node: string) => Promise<void>,
  afterPass: () => void,
): Answering {
  const arrived = exchange.mailArrived;
  if (!arrived) throw new Error('this Exchange does not announce its mail (startExchange does)');
  const acting = new Set<string>();
  let stopped = false;
  let failure: unknown;
  // Wakes every idle worker (they look again, or see that answering stopped).
  const wakeAll = () => arrived.emit('mail');
  const next = () => {
    for (const n of exchange.mail) if (nodes.has(n) && !acting.has(n)) return n;
  };
  const worker = async () => {
    while (!stopped) {
      const n = next();
      if (n === undefined) {
        await once(arrived, 'mail');
        continue;
      }
      exchange.mail.delete(n);
      acting.add(n);
      try {
        await pass(n);
        afterPass();
      } catch (error) {
        failure ??= error;
        stopped = true;
        wakeAll();
      } finally {
        acting.delete(n);
      }
    }
  };
  // Every idle worker listens at once: the default limit of 10 listeners is for leaks, not this.
  arrived.setMaxListeners(SIDE_BY_SIDE + 1);
  const workers = Array.from({ length: SIDE_BY_SIDE }, () => worker());
  return {
    get failure() {
      return failure;
    },
    async stop() {
      stopped = true;
      wakeAll();
      await Promise.all(workers);
      if (failure !== undefined) throw failure;
    },
  };
}

/** The org's agbot (`<org>/ab`) on a store of `kind`: `restart` drops its memory, as a crash does. */
export async function openAgbot(
  exchange: TestExchange,
  org: string,
  kind: StoreKind,
  wrapStore: (store: AgbotStore) => AgbotStore = (s) => s,
  /** The reply timeout: a silent node is given up on once the clock moved this far. */
  protocolTimeoutS = 30,
  /** More agbot settings (agbot/config.ts), e.g. a longer Exchange timeout for a benchmark. */
  settings: Record<string, string> = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'rollout-agbot-'));
  const config = loadAgbotConfig({
    HZN_EXCHANGE_URL: `${exchange.baseUrl}/v1`,
    HZN_AGBOT_ID: `${org}/ab`,
    HZN_AGBOT_TOKEN: 'ab-token',
    HZN_AGBOT_DATA_DIR: dataDir,
    HZN_AGBOT_SIGNALS: 'off',
    ...settings,
  });
  const clock = { skew: 0 };
  const log = createLogger((process.env.ROLLOUT_TEST_LOG as 'info' | undefined) ?? 'error');
  let ctx: RoundContext | undefined;
  const open = async () => {
    const raw: AgbotStore =
      kind === 'sqlite' ? SqliteAgbotStore.open(dataDir) : dynamoAgbotStore({ org, id: 'ab' });
    const exchangeClient = agbotExchange({
      baseUrl: config.exchangeUrl,
      org: config.org,
      id: config.id,
      token: config.token,
      timeoutMs: config.requestTimeoutMs,
    });
    ctx = await openRoundContext({
      config,
      store: wrapStore(raw),
      exchange: exchangeClient,
      log,
      settings: roundSettings(config, { protocolTimeoutS }),
      now: () => Date.now() + clock.skew,
    });
  };
  const close = () => {
    ctx?.exchange.close();
    ctx?.store.close();
    ctx = undefined;
  };
  await open();
  return {
    clock,
    get ctx(): RoundContext {
      if (!ctx) throw new Error('agbot closed');
      return ctx;
    },
    round: () => protocolRound(ctx as RoundContext),
    /** A crash: the memory is gone, the store is what was written. */
    restart: async () => {
      close();
      await open();
    },
    close: () => {
      close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestAgbot = Awaited<ReturnType<typeof openAgbot>>;

/** Rounds, the fleet answering after each, until `done` (at most `max` rounds). */
export async function runUntil(
  agbot: TestAgbot,
  fleet: Fleet,
  done: () => boolean | Promise<boolean>,
  max = 40,
): Promise<number> {
  for (let i = 0; i < max; i++) {
    if (await done()) return i;
    await agbot.round();
    await fleet.act();
  }
  if (await done()) return max;
  throw new Error(`not done after ${max} rounds`);
}
