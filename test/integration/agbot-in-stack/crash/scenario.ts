import { generateKeyPairSync } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect } from 'vitest';
import { BUILT_IN_AGBOT } from '#lib/agbot/built-in';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildReply } from '#lib/protocol/build-message';
import { signDeployment } from '#lib/protocol/deployment-signature';
import { generateMessagingKeys } from '#lib/protocol/keys';
import { localKeyProvider } from '#lib/secrets/local-key-provider';
import { useKeyProvider } from '#lib/secrets/provider';
import { ensureBuiltInAgbot } from '#tables/agbot/built-in';
import { agbotStateKeys } from '#tables/agbot-state/keys';
import { dynamoAgbotStore } from '#tables/agbot-state/store';
import { bootstrap } from '#tables/bootstrap';
import { documentClient, tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { maxChangeId } from '#tables/feed/changes';
import { type ExchangeRequest, type RequestFate, startExchangeHttp } from '#test/support/exchange-http';
import { createOrg, createUser } from '#test/support/identities';
import type { OpenStore } from '../../../../agbot/lambda/round.ts';
import { exchangeCall, ScriptedNode } from '../../../../agbot/test-support/scripted-node.ts';

/**
 * The machinery of the crash-at-each-write tests (crash-writes-*.test.ts; one file per range of
 * writes, so that the ranges run side by side). Issue 26: no proposal lost or duplicated across a crash between any two steps. The in-stack
 * agbot's round handler (a new one per invocation: a cold Lambda each time) runs on the DynamoDB
 * store against the real Exchange (its handlers behind an in-process HTTP server) and a scripted
 * node that answers at once. One agreement's life (policy added → proposal → accepted → finalized
 * → policy deleted → cancelled and archived) is run once without a crash, counting every write
 * the agbot makes (to its store, and to the Exchange: each request but reads and searches); then
 * once for each k, with the invocation killed right after its k-th write (that write took
 * effect; from then on every call of that invocation fails, as in a process that died). The
 * following invocations must finish the work: one proposal reaches the node, the agreement ends
 * as it did without a crash, and nothing is left half done.
 */
const AGBOT = `${BUILT_IN_AGBOT.org}/${BUILT_IN_AGBOT.id}`;
const SERVICE = { url: 'crash.svc', version: '1.0.0', arch: 'amd64' };
/** Invocations per phase at most: enough for a crash and its recovery, few enough to fail fast. */
const MAX_INVOCATIONS = 8;

class Crash extends Error {}

/** One scenario's crash: the k-th write of the agbot (counted across its invocations) kills its invocation. */
class CrashPlan {
  readonly writes: string[] = [];
  /** The invocation now running is dead: its calls fail. */
  dead = false;
  crashedAfter?: string;
  constructor(readonly crashAt = Number.POSITIVE_INFINITY) {}

  /** Counts a write that took effect; answers whether the invocation dies right after it. */
  wrote(label: string): boolean {
    this.writes.push(label);
    if (this.writes.length !== this.crashAt) return false;
    this.dead = true;
    this.crashedAfter = label;
    return true;
  }
}

let plan = new CrashPlan();
/** Starts a scenario without a crash (the idle round's). */
export const noCrash = () => {
  plan = new CrashPlan();
};
/** Starts a scenario of another file (rollouts/crash/life.ts) killed after its k-th write. */
export const crashAfter = (k?: number) => {
  plan = new CrashPlan(k);
};
/** The write the scenario's crash came after (undefined: it had fewer writes); every write so far. */
export const crashed = () => ({ after: plan.crashedAfter, writes: [...plan.writes] });
/** The in-process Exchange's URL (without /v1) once the file's setup ran. */
export const exchangeUrl = () => exchange.baseUrl;
/** Calls of the agbot in flight (store and Exchange): a dead invocation is waited out. */
let inFlight = 0;

/** The Exchange's reads that the agbot makes with POST. */
const isRead = (r: ExchangeRequest) =>
  r.method === 'GET' || (r.method === 'POST' && /\/(changes|search|nodehealth)$/.test(r.path));

function fate(request: ExchangeRequest): RequestFate {
  if (request.caller !== AGBOT) return 'serve';
  if (plan.dead) return 'drop';
  if (isRead(request)) return 'serve';
  const label = `${request.method} ${request.path.replace(/^\/v1\/orgs\/[^/]+/, '')}`;
  return plan.wrote(label) ? 'serve-then-drop' : 'serve';
}

const STORE_WRITES = new Set([
  'keepMessagingKey',
  'advanceFeedCursor',
  'saveAgreement',
  'updateLiveAgreements',
  'setSearch',
  'revisit',
  'revisited',
  'saveRollout',
  'saveRolloutNodes',
  'dropRolloutNodes',
]);

/** The DynamoDB store, each call failing once the invocation is dead and each write counted. */
export const crashingStore: OpenStore = (agbot) => {
  const store = dynamoAgbotStore(agbot);
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(store) as [
    string,
    (...args: unknown[]) => Promise<unknown>,
  ][]) {
    wrapped[name] = async (...args: unknown[]) => {
      if (plan.dead) throw new Crash(`dead: ${name}`);
      inFlight += 1;
      try {
        const result = await method(...args);
        if (STORE_WRITES.has(name) && plan.wrote(`store.${name}${describeWrite(name, args)}`))
          throw new Crash(`killed after store.${name}`);
        return result;
      } finally {
        inFlight -= 1;
      }
    };
  }
  return wrapped as unknown as AgbotStore;
};

function describeWrite(name: string, args: unknown[]): string {
  if (name === 'saveRollout') {
    const r = args[0] as { phase: string; lastDecision: { action: string } };
    return `(${r.phase}, ${r.lastDecision.action})`;
  }
  if (name === 'saveRolloutNodes')
    return `(${(args[0] as { node: string; state: string }[]).map((n) => `${n.node.split('/')[1]} ${n.state}`).join(', ')})`;
  if (name === 'updateLiveAgreements')
    return `(${(args[0] as Parameters<typeof agreementState>[0][]).map(agreementState).join('; ')})`;
  if (name !== 'saveAgreement') return '';
  return `(${agreementState(args[0] as Parameters<typeof agreementState>[0])})`;
}

const agreementState = (a: { state: string; archived: boolean; details?: { proposedAt?: number } }) =>
  `${a.archived ? 'archived' : a.state}${a.details?.proposedAt ? ', proposed' : ''}`;

let exchange: Awaited<ReturnType<typeof startExchangeHttp>>;
/** The in-process Exchange's address (its handlers behind HTTP). */
export const exchangeBaseUrl = () => exchange.baseUrl;
export let createRoundHandler: typeof import('../../../../agbot/lambda/round.ts').createRoundHandler;
const signer = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const nodeKeys = generateMessagingKeys();
const state = dynamoAgbotStore(BUILT_IN_AGBOT);

beforeAll(async () => {
  useKeyProvider(localKeyProvider(Buffer.alloc(32, 9)));
  // No stream: the round handler is invoked directly, and DynamoDB Local keeps every stream record.
  await createTableIfMissing(tableName(), { stream: false });
  await bootstrap();
  await ensureBuiltInAgbot();
  exchange = await startExchangeHttp({ fate });
  process.env.EXCHANGE_API_URL = `${exchange.baseUrl}/v1`;
  process.env.HZN_AGBOT_LOG_LEVEL = 'error';
  ({ createRoundHandler } = await import('../../../../agbot/lambda/round.ts'));
});

afterAll(async () => {
  await exchange?.close();
  useKeyProvider(undefined);
});

let invocations = 0;
/** One invocation of a cold instance: a new handler, so nothing is kept from the previous one. */
export async function invoke(): Promise<void> {
  invocations += 1;
  const handler = createRoundHandler(crashingStore);
  const lambda = { awsRequestId: `crash-${invocations}`, getRemainingTimeInMillis: () => 60_000 };
  const outcome = await handler(undefined, lambda).catch((error: Error) => error);
  if (!plan.dead) {
    if (outcome instanceof Error) throw outcome;
    return;
  }
  // The dead invocation's other lanes fail at their next call: wait until none is in flight.
  for (let quiet = 0; quiet < 4; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    quiet = inFlight === 0 ? quiet + 1 : 0;
  }
  plan.dead = false;
}

/** What one agreement's life ends as: compared between the run without a crash and each crash. */
interface Outcome {
  proposalIds: string[];
  proposalMessages: number;
  replyacks: boolean[];
  cancelReasons: number[];
  finalizedRow: string | undefined;
  archivedReason: number | undefined;
  rowAfterCancel: number;
  live: number;
  guards: number;
  ended: number;
  cursorCurrent: boolean;
  invocations: number;
}

/** Answers as an agent would: accepts every proposal, records the agreement on the replyack. */
async function nodeActs(node: ScriptedNode, org: string): Promise<void> {
  for (const received of await node.poll()) {
    const m = received.message;
    if (m.type === 'proposal') await node.send(received, buildReply(m.agreementId, true, node.creds.user));
    if (m.type === 'replyack' && m.decision)
      await node.putAgreement(m.agreementId, { org, url: SERVICE.url });
  }
}

async function agbotRow(agreementId: string) {
  const [org, id] = AGBOT.split('/');
  return exchangeCall(
    exchange.baseUrl,
    { user: 'root/root', secret: process.env.EXCHANGE_ROOT_PW as string },
    'GET',
    `/orgs/${org}/agbots/${id}/agreements/${agreementId}`,
  );
}

async function partitionItems(prefix: string, node: string) {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': agbotStateKeys.partition(BUILT_IN_AGBOT.org, BUILT_IN_AGBOT.id),
        ':prefix': prefix,
      },
      ConsistentRead: true,
    }),
  );
  return Items.filter((item) => String(item.sk).endsWith(`#${node}`));
}

/** Runs invocations (the node answering after each) until `done`, at most MAX_INVOCATIONS. */
async function until(done: () => Promise<boolean>, node: ScriptedNode, org: string): Promise<void> {
  for (let i = 0; i < MAX_INVOCATIONS && !(await done()); i++) {
    await invoke();
    await nodeActs(node, org);
  }
}

/** An org with a service, a node and a policy for it; the agbot run until their agreement is finalized. */
export async function agreementFinalized(tag: string) {
  const org = `crash-${tag}`;
  await createOrg(org);
  const owner = await createUser(org, 'owner', { admin: true });
  const call = (method: string, path: string, body?: unknown) =>
    exchangeCall(exchange.baseUrl, owner, method, path, body);
  const deployment = JSON.stringify({ services: { s: { image: 'busybox:latest' } } });
  const service = {
    label: SERVICE.url,
    ...SERVICE,
    sharable: 'multiple',
    deployment,
    deploymentSignature: signDeployment(deployment, signer),
  };
  expect((await call('POST', `/orgs/${org}/services`, service)).status).toBe(201);
  const node = new ScriptedNode(exchange.baseUrl, org, 'n1', undefined, nodeKeys);
  await node.register(owner, { properties: [{ name: 'crash', value: tag }] });
  const policy = {
    label: 'p',
    service: { name: SERVICE.url, org, arch: SERVICE.arch, serviceVersions: [{ version: SERVICE.version }] },
    constraints: [`crash == ${tag}`],
  };
  expect((await call('POST', `/orgs/${org}/business/policies/p`, policy)).status).toBe(201);

  const mine = async () =>
    (await state.listAgreements(false))
      .concat(await state.listAgreements(true))
      .filter((a) => a.nodeOrg === org);
  const received = (type: string) => node.received.filter((r) => r.message.type === type);
  const finalized = async () => {
    const [agreement] = await mine();
    if (agreement?.state !== AGBOT_STATES.finalized || received('replyack').length === 0) return false;
    return (
      (await agbotRow(agreement.agreementId)).body?.agreements?.[agreement.agreementId]?.state ===
      'Finalized Agreement'
    );
  };
  await until(finalized, node, org);
  return { org, call, node, mine, received };
}

export async function lifeOfOneAgreement(tag: string, crashAt?: number): Promise<Outcome> {
  plan = new CrashPlan(crashAt);
  const started = invocations;
  const { org, call, node, mine, received } = await agreementFinalized(tag);
  const [agreement] = await mine();
  const row = agreement ? await agbotRow(agreement.agreementId) : undefined;
  const finalizedRow = agreement ? row?.body?.agreements?.[agreement.agreementId]?.state : undefined;

  expect((await call('DELETE', `/orgs/${org}/business/policies/p`)).status).toBe(204);
  const archived = async () => {
    const all = await mine();
    return all.length > 0 && all.every((a) => a.archived) && received('cancel').length > 0;
  };
  await until(archived, node, org);
  // Two more invocations with nothing to do: nothing changes any more, the cursor catches up.
  const latest = await maxChangeId();
  await invoke();
  await invoke();
  await nodeActs(node, org);
  const all = await mine();
  const ended = await partitionItems('ENDED#', `${org}/n1`);
  return {
    proposalIds: [...new Set(received('proposal').map((r) => r.message.agreementId))],
    proposalMessages: received('proposal').length,
    replyacks: received('replyack').map((r) => (r.message as { decision: boolean }).decision),
    cancelReasons: [...new Set(received('cancel').map((r) => (r.message as { reason: number }).reason))],
    finalizedRow,
    archivedReason: all.length === 1 ? all[0]?.terminatedReason : undefined,
    rowAfterCancel: agreement ? (await agbotRow(agreement.agreementId)).status : 0,
    live: all.filter((a) => !a.archived).length,
    guards: (await partitionItems('GUARD#', `${org}/n1`)).length,
    ended: ended.reduce((n, item) => n + ((item.ended as unknown[] | undefined)?.length ?? 0), 0),
    cursorCurrent: ((await state.feedCursor()) ?? 0) >= latest,
    invocations: invocations - started,
  };
}

/**
 * Runs the life once without a crash, then once killed after each write k from `first` to `last`
 * (to the end of the life when `last` is absent: until a life has fewer writes than k), and checks
 * that every crashed life ends as the clean one did. Answers the writes that were crashed after.
 */
export async function crashEachWrite(first: number, last = Number.POSITIVE_INFINITY): Promise<string[]> {
  const clean = await lifeOfOneAgreement('clean');
  expect(clean).toMatchObject({
    proposalIds: [expect.any(String)],
    proposalMessages: 1,
    replyacks: [true],
    finalizedRow: 'Finalized Agreement',
    rowAfterCancel: 404,
    live: 0,
    guards: 0,
    ended: 1,
    cursorCurrent: true,
  });
  const failures: string[] = [];
  const crashedAfter: string[] = [];
  for (let k = first; k <= last; k++) {
    const outcome = await lifeOfOneAgreement(`k${k}`, k);
    if (plan.crashedAfter === undefined) break;
    crashedAfter.push(plan.crashedAfter);
    const expected = {
      ...clean,
      // A message whose send and its record a crash separated is sent again: all alike.
      replyacks:
        outcome.replyacks.length > 0 && outcome.replyacks.every(Boolean) ? outcome.replyacks : [true],
      proposalIds: outcome.proposalIds.length === 1 ? outcome.proposalIds : ['exactly one'],
      invocations: outcome.invocations,
    };
    const differ = Object.keys(expected).filter(
      (key) =>
        JSON.stringify(outcome[key as keyof Outcome]) !== JSON.stringify(expected[key as keyof Outcome]),
    );
    if (differ.length > 0)
      failures.push(
        `killed after write ${k} (${plan.crashedAfter}): ${differ.map((key) => `${key} ${JSON.stringify(outcome[key as keyof Outcome])}, not ${JSON.stringify(expected[key as keyof Outcome])}`).join('; ')}`,
      );
  }
  expect(
    failures,
    `writes crashed after:\n${crashedAfter.map((s, i) => `${first + i}. ${s}`).join('\n')}`,
  ).toEqual([]);
  return crashedAfter;
}
