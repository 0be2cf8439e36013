import { beforeAll, describe, expect, it } from 'vitest';
import { handler as fleet } from '#functions/console/get-fleet-summary';
import { handler as whoami } from '#functions/console/get-whoami';
import { handler as summaries } from '#functions/console/list-node-summaries';
import { forgetFleetSummaries } from '#functions/console/shared/summaries';
import { recordConnected } from '#tables/node/liveness';
import { seedConsoleNodes } from '#test/support/console-fleet';
import { dynamoUsageOf } from '#test/support/dynamo-usage';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const NOW = Date.parse('2031-05-06T07:08:09.000Z');
const clock = { now: () => new Date(NOW) };
const list = summaries.withDeps({ clock });
const summary = fleet.withDeps({ clock });
const page = (auth: Auth, query: Record<string, string> = {}, organization = 'acme') =>
  invoke(list, { auth, path: { organization }, query });
const numbers = (auth: Auth, organization = 'acme') => invoke(summary, { auth, path: { organization } });
const ids = (result: { body: { nodes: { id: string }[] } }) => result.body.nodes.map((node) => node.id);

let alice: Auth;
let bob: Auth;
let admin: Auth;
let otherAdmin: Auth;
let hubAdmin: Auth;
let agbot: Auth;
let node: Auth;

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  alice = await createUser('acme', 'alice');
  bob = await createUser('acme', 'bob');
  admin = await createUser('acme', 'admin', { admin: true });
  otherAdmin = await createUser('other', 'boss', { admin: true });
  hubAdmin = await createUser('root', 'hub', { hubAdmin: true });
  agbot = await createAgbot('acme', 'bot', 'acme/admin');
  node = await createNode('acme', 'z-node', 'acme/bob');
  const finalized = { url: 'acme/web', state: 'finalized', lastUpdated: '2031-05-06T07:00:00.000Z' };
  await seedConsoleNodes(
    'acme',
    [
      {
        id: 'a-online',
        owner: 'acme/alice',
        arch: 'arm64',
        agentVersion: '2.31.0',
        seenAgo: 30,
        agreements: { ag1: finalized },
      },
      { id: 'b-late', owner: 'acme/alice', arch: 'amd64', agentVersion: '2.31.0', seenAgo: 600 },
      {
        id: 'c-offline',
        owner: 'acme/bob',
        arch: 'amd64',
        agentVersion: '2.30.0',
        seenAgo: 5000,
        errors: [{ event_code: 'image_load_failed', message: 'pull <b>failed</b>' }],
      },
      { id: 'd-never', owner: 'acme/bob', pattern: 'acme/pat' },
      { id: 'e-unregistered', owner: 'acme/alice', registered: false },
      // Its own 10 s maximum (raised to the 20 s minimum): 60 s is more than 2 intervals.
      { id: 'f-fast', owner: 'acme/bob', maxInterval: 10, seenAgo: 60, agentVersion: '2.31.0' },
      // Not heard from for days, but its signal connection is open.
      {
        id: 'g-connected',
        owner: 'acme/bob',
        seenAgo: 500_000,
        errors: [{ message: 'x' }, { message: 'y' }],
      },
    ],
    NOW,
  );
  await recordConnected('acme', 'g-connected', 'conn-1', new Date(NOW - 60_000).toISOString());
  await seedConsoleNodes('other', [{ id: 'secret-node', owner: 'other/boss', seenAgo: 10 }], NOW);
});

const ALL = [
  'a-online',
  'b-late',
  'c-offline',
  'd-never',
  'e-unregistered',
  'f-fast',
  'g-connected',
  'z-node',
].map((id) => `acme/${id}`);

describe('GET /v1/console/whoami', () => {
  it('names the caller and what the console may offer it, by role', async () => {
    const me = async (auth: Auth) => (await invoke(whoami, { auth })).body;
    expect(await me(alice)).toEqual({
      id: 'acme/alice',
      org: 'acme',
      kind: 'user',
      role: 'User',
      admin: false,
      hubAdmin: false,
      can: {
        readNodes: true,
        writeAllNodes: false,
        controlRollouts: false,
        writeSecrets: false,
        manageUsers: false,
        listOrgs: false,
      },
    });
    expect((await me(admin)).can).toMatchObject({
      writeAllNodes: true,
      controlRollouts: true,
      writeSecrets: true,
      manageUsers: true,
      listOrgs: false,
    });
    expect(await me(hubAdmin)).toMatchObject({
      role: 'HubAdmin',
      can: { readNodes: false, listOrgs: true, manageUsers: true },
    });
    expect(await me(ROOT)).toMatchObject({
      kind: 'root',
      role: 'SuperUser',
      admin: true,
      can: { listOrgs: true },
    });
    expect(await me(node)).toMatchObject({ kind: 'node', role: 'Node', can: { readNodes: false } });
    expect(await me(agbot)).toMatchObject({
      kind: 'agbot',
      role: 'Agbot',
      can: { readNodes: true, writeAllNodes: false },
    });
  });

  it('answers 401 without a WWW-Authenticate challenge (a browser must not cache Basic credentials)', async () => {
    for (const auth of [undefined, { user: 'acme/alice', secret: 'wrong' }]) {
      const result = await invoke(whoami, auth ? { auth } : {});
      expect(result.status).toBe(401);
      expect(Object.keys(result.headers).map((h) => h.toLowerCase())).not.toContain('www-authenticate');
    }
  });
});

describe('GET /v1/console/orgs/{organization}/nodes', () => {
  it("computes each node's state from its heartbeat, its own interval and its signal connection", async () => {
    const result = await page(admin);
    expect(result.status).toBe(200);
    expect(ids(result)).toEqual(ALL);
    const state = Object.fromEntries(
      result.body.nodes.map((n: { id: string; state: string }) => [n.id, n.state]),
    );
    expect(state).toEqual({
      'acme/a-online': 'online',
      'acme/b-late': 'late',
      'acme/c-offline': 'offline',
      'acme/d-never': 'never-seen',
      'acme/e-unregistered': 'unregistered',
      'acme/f-fast': 'late',
      'acme/g-connected': 'online',
      'acme/z-node': 'unregistered',
    });
    expect(result.body.nodes[0]).toEqual({
      id: 'acme/a-online',
      name: 'a-online',
      owner: 'acme/alice',
      arch: 'arm64',
      nodeType: 'device',
      pattern: '',
      agentVersion: '2.31.0',
      state: 'online',
      lastHeartbeat: new Date(NOW - 30_000).toISOString(),
      connected: false,
      heartbeatSeconds: 120,
      agreements: 1,
      agreementStates: { finalized: 1 },
      errors: 0,
    });
    expect(result.body.nodes.find((n: { id: string }) => n.id === 'acme/c-offline')).toMatchObject({
      errors: 1,
      firstError: 'pull <b>failed</b>',
    });
    expect(result.body.nodes.find((n: { id: string }) => n.id === 'acme/g-connected')).toMatchObject({
      connected: true,
      errors: 2,
    });
    expect(result.body.next).toBeUndefined();
  });

  it('pages in id order with a cursor', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const result = await page(admin, { limit: '3', ...(after ? { after } : {}) });
      expect(result.body.nodes.length).toBeLessThanOrEqual(3);
      seen.push(...ids(result));
      after = result.body.next;
      if (!after) break;
    }
    expect(seen).toEqual(ALL);
  });

  it('filters on the server: state, arch, version, pattern, errors, id prefix (and pages the filtered list)', async () => {
    expect(ids(await page(admin, { state: 'late' }))).toEqual(['acme/b-late', 'acme/f-fast']);
    expect(ids(await page(admin, { arch: 'arm64' }))).toEqual(['acme/a-online']);
    expect(ids(await page(admin, { version: '2.31.0' }))).toEqual([
      'acme/a-online',
      'acme/b-late',
      'acme/f-fast',
    ]);
    expect(ids(await page(admin, { pattern: 'acme/pat' }))).toEqual(['acme/d-never']);
    expect(ids(await page(admin, { pattern: '-', state: 'unregistered' }))).toEqual([
      'acme/e-unregistered',
      'acme/z-node',
    ]);
    expect(ids(await page(admin, { errors: 'true' }))).toEqual(['acme/c-offline', 'acme/g-connected']);
    expect(ids(await page(admin, { prefix: 'b-' }))).toEqual(['acme/b-late']);
    const first = await page(admin, { state: 'online', limit: '1' });
    expect(ids(first)).toEqual(['acme/a-online']);
    expect(ids(await page(admin, { state: 'online', limit: '1', after: first.body.next }))).toEqual([
      'acme/g-connected',
    ]);
  });

  it('refuses a bad query parameter with 400 naming it', async () => {
    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '501' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ state: 'asleep' }, 'state'],
      [{ errors: 'maybe' }, 'errors'],
      [{ after: 'a/b' }, 'after'],
      [{ arch: '' }, 'arch'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const result = await page(admin, query);
      expect(result.status, JSON.stringify(query)).toBe(400);
      expect(result.body.code).toBe('invalid-input');
      expect(result.body.msg).toContain(`'${field}'`);
    }
  });

  it('shows a plain user only their own nodes, whatever owner they ask for', async () => {
    expect(ids(await page(bob))).toEqual([
      'acme/c-offline',
      'acme/d-never',
      'acme/f-fast',
      'acme/g-connected',
      'acme/z-node',
    ]);
    expect(ids(await page(alice))).toEqual(['acme/a-online', 'acme/b-late', 'acme/e-unregistered']);
    expect(ids(await page(alice, { owner: 'acme/bob' }))).toEqual([
      'acme/a-online',
      'acme/b-late',
      'acme/e-unregistered',
    ]);
    expect(ids(await page(admin, { owner: 'acme/alice' }))).toEqual([
      'acme/a-online',
      'acme/b-late',
      'acme/e-unregistered',
    ]);
  });

  it("lets root and the org's agbots read; refuses other orgs, hub admins and nodes", async () => {
    expect(ids(await page(ROOT))).toEqual(ALL);
    expect(ids(await page(agbot))).toEqual(ALL);
    for (const auth of [otherAdmin, hubAdmin, node]) {
      expect((await page(auth)).status, auth.user).toBe(403);
      expect((await numbers(auth)).status, auth.user).toBe(403);
    }
    expect((await page(alice, {}, 'other')).status).toBe(403);
    expect((await numbers(alice, 'other')).status).toBe(403);
    expect((await page(admin, {}, 'other')).status).toBe(403);
    expect(ids(await page(otherAdmin, {}, 'other'))).toEqual(['other/secret-node']);
  });

  it('costs one GetItem, one Query and ⌈2n/100⌉ BatchGetItem for a page of n nodes, the fleet summary the same for 8 nodes', async () => {
    await page(admin); // the caller's principal, remembered from here on
    const calls = await dynamoUsageOf(() => page(admin, { limit: '100' }));
    expect(calls.map((call) => call.command)).toEqual(['GetItem', 'Query', 'BatchGetItem']);
    // 16 keys, 7 of them there (liveness and errors items): 0.5 RCU each, absent keys free.
    expect(calls.map((call) => call.readUnits + call.indexUnits)).toEqual([0.5, 0.5, 3.5]);
    const fleetCalls = await dynamoUsageOf(() => numbers(admin));
    // The kept summary (none yet), the org, the nodes, their items, the summary kept.
    expect(fleetCalls.map((call) => call.command)).toEqual([
      'GetItem',
      'GetItem',
      'Query',
      'BatchGetItem',
      'PutItem',
    ]);
  });
});

describe('GET /v1/console/orgs/{organization}/fleet', () => {
  it("counts the org's nodes as the node pages show them, without listing them", async () => {
    const result = await numbers(admin);
    expect(result.status).toBe(200);
    const listed = (await page(admin)).body.nodes as { state: string }[];
    const byState: Record<string, number> = {};
    for (const n of listed) byState[n.state] = (byState[n.state] ?? 0) + 1;
    expect(result.body).toMatchObject({
      org: 'acme',
      total: 8,
      byState,
      byArch: { amd64: 6, arm64: 1, '-': 1 },
      byVersion: { '2.31.0': 3, '2.30.0': 1, '-': 4 },
      byPattern: { '-': 7, 'acme/pat': 1 },
      withErrors: 2,
      agreements: { total: 1, byState: { finalized: 1 } },
      truncated: false,
    });
    expect(result.body.errorNodes).toEqual([
      { id: 'acme/c-offline', name: 'c-offline', errors: 1, first: 'pull <b>failed</b>' },
      { id: 'acme/g-connected', name: 'g-connected', errors: 2, first: 'x' },
    ]);
    expect(result.body.lastSeen.map((b: { count: number }) => b.count)).toEqual([2, 1, 1, 0, 1, 0]);
    expect(JSON.stringify(result.body)).not.toContain('b-late');
  });

  it('is computed at most once per 30 s per org and owner by an instance', async () => {
    await numbers(admin);
    expect(await dynamoUsageOf(() => numbers(admin))).toEqual([]);
    // A new instance reads the summary kept in the table while it is younger than 30 s.
    forgetFleetSummaries();
    expect((await dynamoUsageOf(() => numbers(admin))).map((call) => call.command)).toEqual(['GetItem']);
    const later = fleet.withDeps({ clock: { now: () => new Date(NOW + 30_000) } });
    const at = (query: Record<string, string> = {}) =>
      invoke(later, { auth: admin, path: { organization: 'acme' }, query });
    // 30 s on, a console that accepts an hour-old summary for its first render gets the kept one…
    forgetFleetSummaries();
    const old = await dynamoUsageOf(async () =>
      expect((await at({ maxAge: '3600' })).body.at).toBe(new Date(NOW).toISOString()),
    );
    expect(old.map((call) => call.command)).toEqual(['GetItem']);
    // …and the usual request computes it again.
    const calls = await dynamoUsageOf(async () =>
      expect((await at()).body.at).toBe(new Date(NOW + 30_000).toISOString()),
    );
    expect(calls.map((call) => call.command)).toEqual([
      'GetItem',
      'GetItem',
      'Query',
      'BatchGetItem',
      'PutItem',
    ]);
    for (const maxAge of ['-1', '86401', 'soon']) {
      const refused = await at({ maxAge });
      expect(refused.status, maxAge).toBe(400);
      expect(refused.body.msg).toContain("'maxAge'");
    }
  });

  it("counts only a plain user's own nodes", async () => {
    expect((await numbers(alice)).body).toMatchObject({
      total: 3,
      byState: { online: 1, late: 1, unregistered: 1 },
    });
  });
});
