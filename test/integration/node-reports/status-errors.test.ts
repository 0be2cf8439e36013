import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as deleteErrors } from '#functions/nodes/delete-node-errors';
import { handler as deleteStatus } from '#functions/nodes/delete-node-status';
import { handler as getErrors } from '#functions/nodes/get-node-errors';
import { handler as getStatus } from '#functions/nodes/get-node-status';
import { handler as putErrors } from '#functions/nodes/put-node-errors';
import { handler as putStatus } from '#functions/nodes/put-node-status';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { nodeKeys } from '#tables/keys/node';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { changeRows, tableSnapshot } from '#test/support/node-wire';
import { partitionSortKeys } from '#test/support/partition';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const now = new Date('2033-03-03T03:03:03.003Z');
const clock = { now: () => now };
const path = (node = 'n1', organization = 'acme') => ({ organization, node });

/** What anax sends: a running service, and a suspended one with only what it knows (omitempty, no containers). */
const statusBody = {
  connectivity: { 'exchange.example.com': true },
  services: [
    {
      agreementId: 'ag1',
      serviceUrl: 'svc.url',
      orgid: 'svcorg',
      version: '1.0.0',
      arch: 'amd64',
      containerStatus: [{ name: 'c1', image: 'img:1', created: 1700000000, state: 'running' }],
      operatorStatus: { phase: 'ok' },
      configState: 'active',
    },
    {
      agreementId: '',
      serviceUrl: 'other.url',
      orgid: 'svcorg',
      containerStatus: null,
      configState: 'suspended',
    },
  ],
};

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

describe('/v1/orgs/{organization}/nodes/{node}/status', () => {
  it('PUT stores it (201) with runningServices computed and a nodestatus change; GET returns it', async () => {
    const result = await invoke(putStatus.withDeps({ clock }), { auth: n1, path: path(), body: statusBody });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'status added or update' });
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodestatus',
      operation: 'created/modified',
    });
    const read = await invoke(getStatus, { auth: n1, path: path() });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      connectivity: { 'exchange.example.com': true },
      services: [
        statusBody.services[0],
        {
          agreementId: '',
          serviceUrl: 'other.url',
          orgid: 'svcorg',
          version: '',
          arch: '',
          containerStatus: [],
          configState: 'suspended',
        },
      ],
      runningServices: '|svcorg/svc.url_1.0.0_amd64|svcorg/other.url__|',
      lastUpdated: '2033-03-03T03:03:03.003Z',
    });
  });

  it('PUT without connectivity stores {}, ignores a sent runningServices, and replaces the old status', async () => {
    const body = { services: [], runningServices: '|forged|' };
    expect((await invoke(putStatus, { auth: alice, path: path(), body })).status).toBe(201);
    const read = await invoke(getStatus, { auth: bot, path: path() });
    expect(read.body).toMatchObject({ connectivity: {}, services: [], runningServices: '|' });
  });

  it.each([
    ['no services', { connectivity: {} }],
    ['services null', { connectivity: {}, services: null }],
    // Upstream's agent always sends the key (null for a suspended service); a client that leaves it out gets 400.
    ['a service without containerStatus', { services: [{ agreementId: 'a', serviceUrl: 's', orgid: 'o' }] }],
    ['an unknown property', { services: [], extra: true }],
    [
      'a container without image',
      { services: [{ containerStatus: [{ name: 'c', created: 1, state: 's' }] }] },
    ],
    [
      'a non-integer created',
      { services: [{ containerStatus: [{ name: 'c', image: 'i', created: 1.5, state: 's' }] }] },
    ],
    ['a connectivity that is not boolean', { connectivity: { h: 'yes' }, services: [] }],
  ])('PUT answers 400 for %s and writes nothing', async (_, body) => {
    const before = await tableSnapshot();
    const result = await invoke(putStatus, { auth: n1, path: path(), body });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid-input');
    expect(await tableSnapshot()).toEqual(before);
  });

  it('PUT names the missing field in its 400', async () => {
    const missing = [{ agreementId: 'a', serviceUrl: 's', orgid: 'o' }];
    const result = await invoke(putStatus, { auth: n1, path: path(), body: { services: missing } });
    expect(result.body.msg).toContain('services.0.containerStatus');
    const none = await invoke(putStatus, { auth: n1, path: path(), body: { connectivity: {} } });
    expect(none.body.msg).toContain('services');
  });

  it('PUT for a missing node → 404, writing nothing', async () => {
    const before = await tableSnapshot();
    const result = await invoke(putStatus, { auth: alice, path: path('ghost'), body: statusBody });
    expect(result.body).toEqual({ code: 'not-found', msg: "node 'acme/ghost' not found" });
    expect(await tableSnapshot()).toEqual(before);
  });

  it("the node's own PUT is one DynamoDB call; a node whose record went meanwhile gets 404, writing nothing", async () => {
    const self = await createNode('acme', 'self', 'acme/alice');
    expect((await invoke(putStatus, { auth: self, path: path('self'), body: statusBody })).status).toBe(201);
    // Its credentials, checked against its record, authorize it: only the transaction runs.
    const before = dynamoCallCount();
    expect((await invoke(putStatus, { auth: self, path: path('self'), body: statusBody })).status).toBe(201);
    expect(dynamoCallCount() - before).toBe(1);
    // The record gone under credentials still remembered: the transaction's check of the node refuses.
    await documentClient.send(
      new DeleteCommand({ TableName: tableName(), Key: nodeKeys.record('acme', 'self') }),
    );
    const snapshot = await tableSnapshot();
    const gone = await invoke(putStatus, { auth: self, path: path('self'), body: statusBody });
    expect(gone.body).toEqual({ code: 'not-found', msg: "node 'acme/self' not found" });
    expect(await tableSnapshot()).toEqual(snapshot);
  });

  it('refuses other nodes (same org and other org), agbots writing, other users and hub admins — writing nothing', async () => {
    const before = await tableSnapshot();
    for (const who of [n2, foreignNode, bot, foreignBot, bob, hub]) {
      expect((await invoke(putStatus, { auth: who, path: path(), body: statusBody })).status, who.user).toBe(
        403,
      );
      expect((await invoke(deleteStatus, { auth: who, path: path() })).status, who.user).toBe(403);
    }
    for (const who of [n2, foreignNode, foreignBot, bob, hub]) {
      expect((await invoke(getStatus, { auth: who, path: path() })).status, who.user).toBe(403);
    }
    expect(await tableSnapshot()).toEqual(before);
    for (const who of [n1, alice, admin, ROOT, bot]) {
      expect((await invoke(getStatus, { auth: who, path: path() })).status, who.user).toBe(200);
    }
  });

  it('GET by the node itself or an agbot of its org reads only the status (1 call); a user reads the node first (2)', async () => {
    const reader = await createNode('acme', 'reader', 'acme/alice');
    expect((await invoke(putStatus, { auth: reader, path: path('reader'), body: statusBody })).status).toBe(
      201,
    );
    const callsOf = async (who: Auth, node = 'reader') => {
      await invoke(getStatus, { auth: who, path: path(node) });
      const before = dynamoCallCount();
      const answer = await invoke(getStatus, { auth: who, path: path(node) });
      return [answer.status, dynamoCallCount() - before];
    };
    expect(await callsOf(reader)).toEqual([200, 1]);
    expect(await callsOf(bot)).toEqual([200, 1]);
    expect(await callsOf(alice)).toEqual([200, 2]);
    // No node (so no status) for the agbot: 404 from the one read; another org's agbot is still refused.
    expect(await callsOf(bot, 'nobody')).toEqual([404, 1]);
    expect((await invoke(getStatus, { auth: foreignBot, path: path('reader') })).status).toBe(403);
  });

  it('DELETE removes it (204) with a nodestatus deletion; then GET → 404 and DELETE → 404', async () => {
    expect((await invoke(deleteStatus, { auth: admin, path: path() })).status).toBe(204);
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodestatus',
      operation: 'deleted',
    });
    expect((await invoke(getStatus, { auth: n1, path: path() })).body).toEqual({
      code: 'not-found',
      msg: 'not found',
    });
    const before = await tableSnapshot();
    expect((await invoke(deleteStatus, { auth: n1, path: path() })).body).toEqual({
      code: 'not-found',
      msg: "status for node 'acme/n1' not found",
    });
    expect(await tableSnapshot()).toEqual(before);
  });
});

describe('/v1/orgs/{organization}/nodes/{node}/errors', () => {
  const errors = [
    { record_id: '1', message: 'image pull failed', event_code: 'image_load_failed', hidden: false },
    'a bare string',
    42,
  ];

  it('PUT stores free-form errors (201) with a nodeerrors change; GET returns them', async () => {
    const result = await invoke(putErrors.withDeps({ clock }), { auth: n1, path: path(), body: { errors } });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({ code: 'ok', msg: 'node errors added or updated' });
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodeerrors',
      operation: 'created/modified',
    });
    const read = await invoke(getErrors, { auth: bot, path: path() });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ errors, lastUpdated: '2033-03-03T03:03:03.003Z' });
  });

  it.each([
    ['no errors', {}],
    ['errors that are not a list', { errors: { a: 1 } }],
    ['an unknown property', { errors: [], more: 1 }],
  ])('PUT answers 400 for %s and writes nothing', async (_, body) => {
    const before = await tableSnapshot();
    expect((await invoke(putErrors, { auth: n1, path: path(), body })).status).toBe(400);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('refuses other nodes, agbots writing, other users — writing nothing', async () => {
    const before = await tableSnapshot();
    for (const who of [n2, foreignNode, bot, bob, hub]) {
      expect((await invoke(putErrors, { auth: who, path: path(), body: { errors } })).status, who.user).toBe(
        403,
      );
      expect((await invoke(deleteErrors, { auth: who, path: path() })).status, who.user).toBe(403);
    }
    for (const who of [n2, foreignNode, foreignBot, bob]) {
      expect((await invoke(getErrors, { auth: who, path: path() })).status, who.user).toBe(403);
    }
    expect(await tableSnapshot()).toEqual(before);
  });

  it('DELETE removes them (204) with a nodeerrors deletion; none → 404 "node … not found", as upstream', async () => {
    expect((await invoke(deleteErrors, { auth: alice, path: path() })).status).toBe(204);
    expect((await changeRows('acme')).at(-1)).toEqual({
      id: 'n1',
      resource: 'nodeerrors',
      operation: 'deleted',
    });
    expect((await invoke(getErrors, { auth: n1, path: path() })).status).toBe(404);
    expect((await invoke(deleteErrors, { auth: n1, path: path() })).body).toEqual({
      code: 'not-found',
      msg: "node 'acme/n1' not found",
    });
  });
});

describe('deleting the node', () => {
  it('takes its status and errors', async () => {
    const doomed = await createNode('acme', 'doomed', 'acme/alice');
    await invoke(putStatus, { auth: doomed, path: path('doomed'), body: statusBody });
    await invoke(putErrors, { auth: doomed, path: path('doomed'), body: { errors: ['e'] } });
    expect((await partitionSortKeys('NODE#acme/doomed')).sort()).toEqual(['ERRORS', 'NODE', 'STATUS']);
    expect((await invoke(deleteNode, { auth: alice, path: path('doomed') })).status).toBe(204);
    expect(await partitionSortKeys('NODE#acme/doomed')).toEqual([]);
  });
});
