import { beforeAll, describe, expect, it } from 'vitest';
import { handler as putAgbotAgreement } from '#functions/agbot-agreements/put-agreement';
import { handler as deleteAgreement } from '#functions/node-agreements/delete-agreement';
import { handler as deleteAgreements } from '#functions/node-agreements/delete-agreements';
import { handler as getAgreement } from '#functions/node-agreements/get-agreement';
import { handler as listAgreements } from '#functions/node-agreements/list-agreements';
import { handler as putAgreement } from '#functions/node-agreements/put-agreement';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as confirmAgreement } from '#functions/orgs/confirm-agreement';
import { getConfig } from '#lib/config';
import { dynamoCallsByLabel, withCallLabel } from '#tables/client';
import { getNodeAgreement } from '#tables/node/agreement-records';
import { getNode } from '#tables/node/records';
import { getUserCounts } from '#tables/org/stats';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { changeRows, tableSnapshot } from '#test/support/node-wire';
import { partitionSortKeys } from '#test/support/partition';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const counting = useStreamCounts();
const { orgCounts } = counting;
/** The table once every write made so far has been counted ("writes nothing" compares two). */
const settledSnapshot = async () => {
  await counting.settled();
  return tableSnapshot();
};

type Auth = { user: string; secret: string };
let now = new Date('2033-03-03T03:03:03.003Z');
const clock = { now: () => now };
const put = putAgreement.withDeps({ clock });
const agreementService = { orgid: 'acme', pattern: '', url: 'svcorg/svc.url' };
const services = [{ orgid: 'svcorg', url: 'svc.url' }];
const body = { services, agreementService, state: 'Agree to proposal' };
const path = (agid?: string, node = 'n1', organization = 'acme') => ({
  organization,
  node,
  ...(agid === undefined ? {} : { agid }),
});
const send = (
  auth: Auth,
  agid: string,
  payload: unknown = body,
  node = 'n1',
  query?: Record<string, string>,
) => invoke(put, { auth, path: path(agid, node), body: payload, query });
const list = (auth: Auth, node = 'n1', organization = 'acme') =>
  invoke(listAgreements, { auth, path: path(undefined, node, organization) });
const getOne = (auth: Auth, agid: string, node = 'n1') =>
  invoke(getAgreement, { auth, path: path(agid, node) });
const removeOne = (auth: Auth, agid: string, node = 'n1') =>
  invoke(deleteAgreement.withDeps({ clock }), { auth, path: path(agid, node) });
const removeAll = (auth: Auth, node = 'n1') =>
  invoke(deleteAgreements.withDeps({ clock }), { auth, path: path(undefined, node) });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let n1: Auth;
let n2: Auth;
let foreignNode: Auth;
let bot: Auth;
let foreignBot: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  n1 = await createNode('acme', 'n1', 'acme/alice');
  n2 = await createNode('acme', 'n2', 'acme/bob');
  await createUser('other', 'carol');
  foreignNode = await createNode('other', 'n9', 'other/carol');
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  foreignBot = await createAgbot('other', 'bot9', 'other/carol');
});

describe('PUT /v1/orgs/{organization}/nodes/{node}/agreements/{agid}', () => {
  it('adds an agreement (201), stamps the node, records a nodeagreements change and counts it', async () => {
    const org = await orgCounts('acme');
    const user = await getUserCounts('acme', 'alice');
    const result = await send(n1, 'ag1');
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'agreement added or updated' });
    const listed = await list(n1);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      agreements: {
        ag1: {
          services,
          agrService: agreementService,
          state: 'Agree to proposal',
          lastUpdated: '2033-03-03T03:03:03.003Z',
        },
      },
      lastIndex: 0,
    });
    const node = await getNode('acme', 'n1');
    expect(node?.lastUpdated).toBe('2033-03-03T03:03:03.003Z');
    expect(node?.lastHeartbeat).toBe('2033-03-03T03:03:03.003Z');
    expect(node?.agreementCount).toBe(1);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements + 1);
    expect((await getUserCounts('acme', 'alice')).nodeAgreements).toBe(user.nodeAgreements + 1);
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodeagreements',
      operation: 'created/modified',
    });
  });

  it('updates an existing one without recounting; noheartbeat=true leaves lastHeartbeat alone', async () => {
    await send(n1, 'ag2');
    const org = await orgCounts('acme');
    const before = await getNode('acme', 'n1');
    now = new Date('2033-04-04T04:04:04.004Z');
    const changed = { agreementService, state: 'Finalized Agreement' };
    expect((await send(alice, 'ag2', changed, 'n1', { noheartbeat: 'TRUE' })).status).toBe(201);
    expect((await getOne(n1, 'ag2')).body.agreements.ag2).toEqual({
      services: [],
      agrService: agreementService,
      state: 'Finalized Agreement',
      lastUpdated: '2033-04-04T04:04:04.004Z',
    });
    const after = await getNode('acme', 'n1');
    expect(after?.lastUpdated).toBe('2033-04-04T04:04:04.004Z');
    expect(after?.lastHeartbeat).toBe(before?.lastHeartbeat);
    expect(after?.agreementCount).toBe(before?.agreementCount);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements);
  });

  it("accepts anax's agreementService with empty orgid and url left out (omitempty)", async () => {
    expect((await send(n1, 'omitted', { agreementService: { pattern: '' }, state: 's' })).status).toBe(201);
    expect((await getOne(n1, 'omitted')).body.agreements.omitted.agrService).toEqual({
      orgid: '',
      pattern: '',
      url: '',
    });
  });

  it('stores `services` alone with an empty agreement service', async () => {
    expect((await send(n1, 'only-services', { services, state: 's' })).status).toBe(201);
    expect((await getOne(n1, 'only-services')).body.agreements['only-services'].agrService).toEqual({
      orgid: '',
      pattern: '',
      url: '',
    });
  });

  it.each([
    [
      'neither services nor agreementService',
      { state: 's' },
      "you must specify at least 1 of 'services' or 'agreementService'.",
    ],
    [
      'both null',
      { services: null, agreementService: null, state: 's' },
      "you must specify at least 1 of 'services' or 'agreementService'.",
    ],
    ['no state', { services }, 'state'],
    ['an unknown property', { ...body, extra: 1 }, 'extra'],
    [
      'an agreementService without pattern',
      { agreementService: { orgid: 'o', url: 'u' }, state: 's' },
      'pattern',
    ],
  ])('answers 400 for %s and writes nothing', async (_, payload, msg) => {
    const before = await settledSnapshot();
    const result = await send(n1, 'bad', payload);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain(msg);
    expect(await settledSnapshot()).toEqual(before);
  });

  it('answers 400 for a noheartbeat that is not true or false', async () => {
    const result = await send(n1, 'hb', body, 'n1', { noheartbeat: 'tru' });
    expect(result.status).toBe(400);
    expect(result.body.msg).toContain('noheartbeat');
  });

  it('answers 404 for a missing node (upstream: 500) and writes nothing', async () => {
    const before = await settledSnapshot();
    const result = await send(alice, 'ghostly', body, 'ghost');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    expect(await settledSnapshot()).toEqual(before);
  });

  it('refuses a new agreement past maxAgreements, even when racing, but still updates existing ones', async () => {
    const config = getConfig();
    const limited = putAgreement.withDeps({
      clock,
      config: () => ({ ...config, limits: { ...config.limits, maxAgreements: 2 } }),
    });
    const limitedNode = await createNode('acme', 'lim', 'acme/alice');
    const make = (id: string) => invoke(limited, { auth: limitedNode, path: path(id, 'lim'), body });
    expect((await make('l1')).status).toBe(201);
    expect((await make('l2')).status).toBe(201);
    const before = await settledSnapshot();
    const over = await make('l3');
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: you are over the limit of 2 agreements for this node',
    });
    expect(await settledSnapshot()).toEqual(before);
    expect((await make('l1')).status).toBe(201);
    const racer = await createNode('acme', 'racer', 'acme/alice');
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        invoke(limited, { auth: racer, path: path(`r${i}`, 'racer'), body }),
      ),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(2);
    expect(racing.filter((r) => r.status === 403)).toHaveLength(4);
    expect((await getNode('acme', 'racer'))?.agreementCount).toBe(2);
  });

  it('stores every one of 20 agreements PUT at once, counted once each', async () => {
    const burst = await createNode('acme', 'burst', 'acme/alice');
    const org = await orgCounts('acme');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(burst, `b${i}`, body, 'burst')),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect((await getNode('acme', 'burst'))?.agreementCount).toBe(20);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements + 20);
    expect(Object.keys((await list(burst, 'burst')).body.agreements)).toHaveLength(20);
  });

  it('costs the node 3 DynamoDB calls to add an agreement (its record, the transaction, the owner`s counter) and 2 to update it: the record it reads says the agreement is new', async () => {
    const counted = await createNode('acme', 'counted', 'acme/alice');
    await send(counted, 'warm-up', body, 'counted');
    // The request's own calls, by label: the stream consumer beside it counts the org (its calls).
    const callsOf = async (agid: string, state: string) => {
      const label = `put ${agid} ${state}`;
      expect(
        (await withCallLabel(label, () => send(counted, agid, { ...body, state }, 'counted'))).status,
      ).toBe(201);
      return [...dynamoCallsByLabel()]
        .filter(([key]) => key.startsWith(`${label} `))
        .reduce((n, [, c]) => n + c, 0);
    };
    const org = await orgCounts('acme');
    expect(await callsOf('counted-1', 'Agree to proposal')).toBe(3);
    expect(await callsOf('counted-1', 'Finalized Agreement')).toBe(2);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements + 1);
    expect((await getNodeAgreement('acme', 'counted', 'counted-1'))?.state).toBe('Finalized Agreement');
  });

  it('keeps an agreement id used by two nodes as two agreements (ids belong to their node)', async () => {
    expect((await send(n1, 'shared')).status).toBe(201);
    expect((await send(n2, 'shared', body, 'n2')).status).toBe(201);
    expect(await getNodeAgreement('acme', 'n1', 'shared')).toBeDefined();
    expect(await getNodeAgreement('acme', 'n2', 'shared')).toBeDefined();
  });

  it('lets the node, its owner, org admins and root write; refuses agbots, other nodes, other users, hub admins — writing nothing', async () => {
    for (const who of [n1, alice, admin, ROOT])
      expect((await send(who, `by-${who.user.replace('/', '-')}`)).status).toBe(201);
    const before = await settledSnapshot();
    for (const who of [bot, foreignBot, n2, foreignNode, bob, hub]) {
      const denied = await send(who, 'intruder');
      expect(denied.status, who.user).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await settledSnapshot()).toEqual(before);
  });
});

describe('GET /v1/orgs/{organization}/nodes/{node}/agreements[/{agid}]', () => {
  it('answers 404 with the empty map when there are none, or no such agreement or node', async () => {
    const empty = { agreements: {}, lastIndex: 0 };
    await createNode('acme', 'bare', 'acme/alice');
    expect(await list(alice, 'bare')).toMatchObject({ status: 404, body: empty });
    expect(await getOne(n1, 'nope')).toMatchObject({ status: 404, body: empty });
    expect(await list(alice, 'ghost')).toMatchObject({ status: 404, body: empty });
  });

  it('lets the node, its owner, org admins, root and agbots of the org read; not other nodes or users', async () => {
    for (const who of [n1, alice, admin, ROOT, bot])
      expect((await getOne(who, 'ag1')).status, who.user).toBe(200);
    for (const who of [n2, foreignNode, bob, hub, foreignBot]) {
      expect((await getOne(who, 'ag1')).status, who.user).toBe(403);
      expect((await list(who)).status, who.user).toBe(403);
    }
  });
});

describe('DELETE /v1/orgs/{organization}/nodes/{node}/agreements[/{agid}]', () => {
  it('deletes one (204), stamps the node, uncounts it and records the deletion; absent → 404', async () => {
    await send(n1, 'gone');
    const org = await orgCounts('acme');
    const count = (await getNode('acme', 'n1'))?.agreementCount ?? 0;
    now = new Date('2033-05-05T05:05:05.005Z');
    expect((await removeOne(n1, 'gone')).status).toBe(204);
    expect(await getNodeAgreement('acme', 'n1', 'gone')).toBeUndefined();
    const node = await getNode('acme', 'n1');
    expect(node?.lastUpdated).toBe('2033-05-05T05:05:05.005Z');
    expect(node?.agreementCount).toBe(count - 1);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements - 1);
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodeagreements',
      operation: 'deleted',
    });
    const before = await settledSnapshot();
    expect((await removeOne(n1, 'gone')).body).toEqual({
      code: 'not-found',
      msg: "agreement 'gone' for node 'acme/n1' not found",
    });
    expect(await settledSnapshot()).toEqual(before);
  });

  it('refuses other nodes, agbots and other users, writing nothing', async () => {
    const before = await settledSnapshot();
    for (const who of [n2, foreignNode, bot, bob, hub]) {
      expect((await removeOne(who, 'ag1')).status, who.user).toBe(403);
      expect((await removeAll(who)).status, who.user).toBe(403);
    }
    expect(await settledSnapshot()).toEqual(before);
  });

  it('deletes all (204) and uncounts them; none left → 404', async () => {
    const many = await createNode('acme', 'many', 'acme/bob');
    for (const id of ['m1', 'm2', 'm3']) await send(many, id, body, 'many');
    const org = await orgCounts('acme');
    const user = await getUserCounts('acme', 'bob');
    expect((await removeAll(bob, 'many')).status).toBe(204);
    expect((await list(bob, 'many')).status).toBe(404);
    expect((await getNode('acme', 'many'))?.agreementCount).toBe(0);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements - 3);
    expect((await getUserCounts('acme', 'bob')).nodeAgreements).toBe(user.nodeAgreements - 3);
    expect((await removeAll(bob, 'many')).body).toEqual({
      code: 'not-found',
      msg: "no agreements for node 'acme/many' found",
    });
  });

  it('goes with its node, which uncounts them', async () => {
    const doomed = await createNode('acme', 'doomed', 'acme/alice');
    for (const id of ['d1', 'd2']) await send(doomed, id, body, 'doomed');
    const org = await orgCounts('acme');
    expect(
      (await invoke(deleteNode, { auth: alice, path: { organization: 'acme', node: 'doomed' } })).status,
    ).toBe(204);
    expect(await partitionSortKeys('NODE#acme/doomed')).toEqual([]);
    expect((await orgCounts('acme')).nodeAgreements).toBe(org.nodeAgreements - 2);
  });
});

describe('POST /v1/orgs/{organization}/agreements/confirm with node agreements', () => {
  it('finds only agbot agreements, as upstream: a node agreement of the same id neither confirms nor hides one', async () => {
    const confirm = (auth: Auth, agreementId: string) =>
      invoke(confirmAgreement, { auth, path: { organization: 'acme' }, body: { agreementId } });
    await send(n1, 'nodeonly');
    expect((await confirm(alice, 'nodeonly')).status).toBe(404);
    expect((await confirm(bot, 'nodeonly')).status).toBe(404);
    await send(n1, 'both');
    const agbotBody = { service: { orgid: 'acme', pattern: '', url: 'svc' }, state: 'signed' };
    const agbotPath = { organization: 'acme', agreementbot: 'bot', agreement: 'both' };
    expect((await invoke(putAgbotAgreement, { auth: bot, path: agbotPath, body: agbotBody })).status).toBe(
      201,
    );
    expect((await confirm(alice, 'both')).status).toBe(201);
    expect((await confirm(bot, 'both')).status).toBe(201);
  });
});
