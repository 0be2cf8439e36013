import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAgreement } from '#functions/agbot-agreements/delete-agreement';
import { handler as deleteAgreements } from '#functions/agbot-agreements/delete-agreements';
import { handler as getAgreement } from '#functions/agbot-agreements/get-agreement';
import { handler as listAgreements } from '#functions/agbot-agreements/list-agreements';
import { handler as putAgreement } from '#functions/agbot-agreements/put-agreement';
import { getConfig } from '#lib/config';
import {
  putAgreement as putAgreementRecord,
  getAgreement as readAgreement,
} from '#tables/agbot/agreement-records';
import { getAgbot } from '#tables/agbot/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

type Auth = { user: string; secret: string };
let now = new Date('2033-03-03T03:03:03.003Z');
const clock = { now: () => now };
const put = putAgreement.withDeps({ clock });
const service = { orgid: 'acme', pattern: 'acme/pat', url: 'svc' };
const body = { service, state: 'signed' };
const path = (agreement?: string, agreementbot = 'bot', organization = 'acme') => ({
  organization,
  agreementbot,
  ...(agreement === undefined ? {} : { agreement }),
});
const send = (auth: Auth, agreement: string, payload: unknown = body, agreementbot = 'bot') =>
  invoke(put, { auth, path: path(agreement, agreementbot), body: payload });
const list = (auth: Auth, agreementbot = 'bot', organization = 'acme') =>
  invoke(listAgreements, { auth, path: path(undefined, agreementbot, organization) });
const getOne = (auth: Auth, agreement: string, agreementbot = 'bot') =>
  invoke(getAgreement, { auth, path: path(agreement, agreementbot) });

let alice: Auth;
let bob: Auth;
let admin: Auth;
let hub: Auth;
let bot: Auth;
let otherBot: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'boss', { admin: true });
  hub = await createUser('root', 'hub', { hubAdmin: true });
  bot = await createAgbot('acme', 'bot', 'acme/alice');
  otherBot = await createAgbot('acme', 'bob-bot', 'acme/bob');
  node = await createNode('acme', 'n1', 'acme/alice');
});

describe('PUT /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}', () => {
  it('adds an agreement (201, lastUpdated set, dataLastReceived "") and counts it', async () => {
    const org = await orgCounts('acme');
    const result = await send(bot, 'ag1');
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'agreement added or updated' });
    const listed = await list(bot);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      agreements: {
        ag1: { service, state: 'signed', lastUpdated: '2033-03-03T03:03:03.003Z', dataLastReceived: '' },
      },
      lastIndex: 0,
    });
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements + 1);
    expect((await getAgbot('acme', 'bot'))?.agreementCount).toBe(1);
  });

  it('updates an existing one: new service, state and lastUpdated, dataLastReceived kept, not recounted', async () => {
    await send(bot, 'ag2');
    // A stored dataLastReceived (written by no endpoint yet) survives an update.
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('#tables/client');
    const { agbotKeys } = await import('#tables/keys/agbot');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotKeys.agreement('acme', 'bot', 'ag2'),
        UpdateExpression: 'SET dataLastReceived = :at',
        ExpressionAttributeValues: { ':at': '2033-01-01T00:00:00.000Z' },
      }),
    );
    const org = await orgCounts('acme');
    now = new Date('2033-04-04T04:04:04.004Z');
    const changed = { service: { ...service, url: 'svc2' }, state: 'finalized' };
    expect((await send(alice, 'ag2', changed)).status).toBe(201);
    expect((await getOne(bot, 'ag2')).body.agreements.ag2).toEqual({
      ...changed,
      lastUpdated: '2033-04-04T04:04:04.004Z',
      dataLastReceived: '2033-01-01T00:00:00.000Z',
    });
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements);
    expect((await getAgbot('acme', 'bot'))?.agreementCount).toBe(2);
  });

  it('takes the owner of the agbot`s own write from its credentials; an agbot gone since writes nothing', async () => {
    expect((await send(bot, 'own', { service, state: 'Finalized Agreement' })).status).toBe(201);
    expect((await readAgreement('acme', 'bot', 'own'))?.owner).toBe('acme/alice');
    // An agbot gone since its credentials were checked fails the write's condition: a 404 there.
    const ghost = { ...body, org: 'acme', agbot: 'ghost', agreementId: 'g', owner: 'acme/alice', now: '' };
    expect(await putAgreementRecord(ghost, 0)).toBe('no-agbot');
    expect(await readAgreement('acme', 'ghost', 'g')).toBeUndefined();
  });

  it('stores every one of 50 agreements PUT at once, counted once each', async () => {
    const org = await orgCounts('acme');
    const before = (await getAgbot('acme', 'bot'))?.agreementCount ?? 0;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => send(bot, `burst-${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements + 50);
    expect((await getAgbot('acme', 'bot'))?.agreementCount).toBe(before + 50);
    expect(Object.keys((await list(bot)).body.agreements)).toHaveLength(before + 50);
  });

  it('refuses a new agreement past maxAgreements (0 = unlimited) but still updates existing ones', async () => {
    const config = getConfig();
    const limited = putAgreement.withDeps({
      config: () => ({ ...config, limits: { ...config.limits, maxAgreements: 2 } }),
    });
    const bot2 = await createAgbot('acme', 'bot2', 'acme/alice');
    const make = (id: string) => invoke(limited, { auth: bot2, path: path(id, 'bot2'), body });
    expect((await make('l1')).status).toBe(201);
    expect((await make('l2')).status).toBe(201);
    const over = await make('l3');
    expect(over.status).toBe(403);
    expect(over.body).toEqual({
      code: 'access-denied',
      msg: 'Access Denied: you are over the limit of 2 agreements for this agbot',
    });
    expect(await readAgreement('acme', 'bot2', 'l3')).toBeUndefined();
    expect((await make('l1')).status).toBe(201);
    // Concurrent creates never pass it either.
    const bot3 = await createAgbot('acme', 'bot3', 'acme/alice');
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => invoke(limited, { auth: bot3, path: path(`r${i}`, 'bot3'), body })),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(2);
    expect(racing.filter((r) => r.status === 403)).toHaveLength(4);
  });

  it('lets the owner, org admins, hub admins and root write; refuses other users, other agbots and nodes', async () => {
    for (const who of [alice, admin, hub, ROOT])
      expect((await send(who, `by-${who.user.replace('/', '-')}`)).status).toBe(201);
    for (const who of [bob, otherBot, node]) {
      const denied = await send(who, 'intruder');
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('access-denied');
    }
    expect(await readAgreement('acme', 'bot', 'intruder')).toBeUndefined();
    expect((await send({ user: 'acme/bot', secret: 'nope' }, 'x')).status).toBe(401);
  });

  it('answers 404 for a missing agbot, writing nothing', async () => {
    const result = await send(alice, 'ag1', body, 'ghost');
    expect(result.status).toBe(404);
    expect(result.body.msg).toBe("agbot 'acme/ghost' not found");
    expect(await readAgreement('acme', 'ghost', 'ag1')).toBeUndefined();
  });

  it.each([
    ['a missing state', { service }, "body field 'state' is required"],
    ['a missing service', { state: 's' }, "body field 'service' is required"],
    [
      'a service without url',
      { service: { orgid: 'o', pattern: 'p' }, state: 's' },
      "'service.url' is required",
    ],
    ['an unknown service field', { service: { ...service, arch: 'x' }, state: 's' }, "'service.arch'"],
    ['an unknown field', { ...body, extra: 1 }, "unknown body field 'extra'"],
    ['a number for state', { service, state: 3 }, "'state'"],
    ['malformed JSON', '{"service"', 'malformed JSON'],
  ])('answers 400 for %s, naming it, and writes nothing', async (_, payload, msg) => {
    const result = await send(bot, 'bad', payload);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(result.body.msg).toContain(msg);
    expect(await readAgreement('acme', 'bot', 'bad')).toBeUndefined();
  });
});

describe('GET agbot agreements', () => {
  it('lets the agbot, its owner, org admins, hub admins and root read; refuses other users, agbots, nodes', async () => {
    for (const who of [bot, alice, admin, hub, ROOT]) {
      expect((await list(who)).status).toBe(200);
      expect((await getOne(who, 'ag1')).status).toBe(200);
    }
    for (const who of [bob, otherBot, node]) {
      expect((await list(who)).status).toBe(403);
      expect((await getOne(who, 'ag1')).status).toBe(403);
    }
    const stranger = await createUser('other', 'olga');
    expect((await list(stranger)).status).toBe(403);
    // Another org's missing agbot reads as 404, as upstream.
    expect((await list(stranger, 'ghost')).status).toBe(404);
  });

  it('returns one agreement, or 404 with the empty map', async () => {
    const one = await getOne(bot, 'ag1');
    expect(Object.keys(one.body.agreements)).toEqual(['ag1']);
    expect(one.body.lastIndex).toBe(0);
    const missing = await getOne(bot, 'nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ agreements: {}, lastIndex: 0 });
    const noAgbot = await list(alice, 'ghost');
    expect(noAgbot.status).toBe(404);
    expect(noAgbot.body).toEqual({ agreements: {}, lastIndex: 0 });
  });
});

describe('DELETE agbot agreements', () => {
  it('deletes one (204) and uncounts it; 404 when it is not there', async () => {
    const org = await orgCounts('acme');
    const count = (await getAgbot('acme', 'bot'))?.agreementCount ?? 0;
    const remove = (auth: Auth, agreement: string) =>
      invoke(deleteAgreement, { auth, path: path(agreement) });
    expect((await remove(bob, 'ag1')).status).toBe(403);
    const result = await remove(bot, 'ag1');
    expect(result.status).toBe(204);
    expect(result.text).toBe('');
    expect(await readAgreement('acme', 'bot', 'ag1')).toBeUndefined();
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements - 1);
    expect((await getAgbot('acme', 'bot'))?.agreementCount).toBe(count - 1);
    const again = await remove(bot, 'ag1');
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe("agreement 'ag1' for agbot 'acme/bot' not found");
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements - 1);
  });

  it('deletes all of them (204), uncounting each once; then 404', async () => {
    const org = await orgCounts('acme');
    const count = (await getAgbot('acme', 'bot'))?.agreementCount ?? 0;
    expect(count).toBeGreaterThan(50);
    const removeAll = (auth: Auth) => invoke(deleteAgreements, { auth, path: path() });
    expect((await removeAll(node)).status).toBe(403);
    const results = await Promise.all([removeAll(alice), removeAll(bot)]);
    expect(results.map((r) => r.status)).toContain(204);
    expect((await list(bot)).status).toBe(404);
    expect((await orgCounts('acme')).agbotAgreements).toBe(org.agbotAgreements - count);
    expect((await getAgbot('acme', 'bot'))?.agreementCount).toBe(0);
    const none = await removeAll(alice);
    expect(none.status).toBe(404);
    expect(none.body.msg).toBe("no agreements for agbot 'acme/bot' found");
  });
});
