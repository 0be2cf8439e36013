import { beforeAll, describe, expect, it } from 'vitest';
import { handler as servePattern } from '#functions/agbot-patterns/post-pattern';
import { handler as servePolicy } from '#functions/agbot-policies/post-policy';
import { handler as postPolicy } from '#functions/deployment-policies/post-policy';
import { handler as searchPolicy } from '#functions/deployment-policies/search-policy';
import { handler as deleteAgreement } from '#functions/node-agreements/delete-agreement';
import { handler as putAgreement } from '#functions/node-agreements/put-agreement';
import { handler as nodeHealth } from '#functions/nodes/node-health';
import { handler as putNode } from '#functions/nodes/put-node';
import { handler as patternNodeHealth } from '#functions/patterns/pattern-node-health';
import { handler as postPattern } from '#functions/patterns/post-pattern';
import { handler as searchPattern } from '#functions/patterns/search-pattern';
import { dynamoCallCount } from '#tables/client';
import { seedPattern, seedService } from '#test/support/catalog';
import { createAgbot, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const ORG = 'sacme';
const SERVICE = {
  serviceUrl: 'web',
  serviceOrgid: 'ssvc',
  serviceArch: 'amd64',
  serviceVersions: [{ version: '1.0.0' }],
};
const nodeAuth = (id: string): Auth => ({ user: `${ORG}/${id}`, secret: `${id}-token` });

/** A node as its agent registers it: token, pattern and public key together, heartbeating unless told not to. */
async function registerNode(
  id: string,
  options: { pattern?: string; publicKey?: string; arch?: string; noheartbeat?: boolean } = {},
) {
  const answer = await invoke(putNode, {
    auth: who.admin as Auth,
    path: { organization: ORG, node: id },
    query: options.noheartbeat ? { noheartbeat: 'true' } : undefined,
    body: {
      name: id,
      token: `${id}-token`,
      pattern: options.pattern ?? '',
      publicKey: options.publicKey ?? `key-of-${id}`,
      arch: options.arch ?? 'amd64',
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

async function agree(node: string, agid: string, url: string, state: string) {
  const answer = await invoke(putAgreement, {
    auth: nodeAuth(node),
    path: { organization: ORG, node, agid },
    body: { services: [], agreementService: { orgid: 'ssvc', pattern: '', url }, state },
  });
  expect(answer.status).toBe(201);
}

const ids = (body: { nodes: { id: string }[] }) => body.nodes.map((n) => n.id).sort();

beforeAll(async () => {
  await createOrg(ORG);
  await createOrg('sother');
  await createOrg('ssvc');
  who.admin = await createUser(ORG, 'admin', { admin: true });
  who.user = await createUser(ORG, 'user');
  who.agbot = await createAgbot(ORG, 'ag', `${ORG}/admin`);
  who.idle = await createAgbot(ORG, 'idle', `${ORG}/admin`);
  // A multi-tenant agbot serves other orgs only when root or a hub admin made it.
  who.mt = await createAgbot('IBM', 'smt', 'root/root');
  who.otherAgbot = await createAgbot('sother', 'ag2', 'sother/x');
  await seedService('ssvc', { url: 'web', version: '1.0.0', arch: 'amd64', public: true });
  await seedService('ssvc', { url: 'web', version: '1.0.0', arch: 'arm64', public: true });
  const pattern = await invoke(postPattern, {
    auth: who.admin as Auth,
    path: { organization: ORG, pattern: 'pat' },
    body: { label: 'p', services: [SERVICE] },
  });
  expect(pattern.status).toBe(201);
  const policy = await invoke(postPolicy, {
    auth: who.admin as Auth,
    path: { organization: ORG, policy: 'pol' },
    body: {
      label: 'p',
      service: { name: 'web', org: 'ssvc', arch: 'amd64', serviceVersions: [{ version: '1.0.0' }] },
    },
  });
  expect(policy.status).toBe(201);
  // The agbot serves every pattern and policy of the org (upstream's `*`); `idle` serves nothing.
  for (const [handler, body] of [
    [servePattern, { patternOrgid: ORG, pattern: '*', nodeOrgid: ORG }],
    [servePolicy, { businessPolOrgid: ORG, businessPol: '*', nodeOrgid: ORG }],
  ] as const) {
    for (const agbot of [who.agbot as Auth, who.mt as Auth]) {
      const [org, id] = agbot.user.split('/') as [string, string];
      const served = await invoke(handler, {
        auth: ROOT,
        path: { organization: org, agreementbot: id },
        body,
      });
      expect(served.status).toBe(201);
    }
  }
  await registerNode('p1', { pattern: `${ORG}/pat` });
  await registerNode('p2', { pattern: `${ORG}/pat`, arch: 'arm64' });
  await registerNode('p3', { pattern: `${ORG}/pat`, publicKey: '' });
  await registerNode('p4', { pattern: `${ORG}/pat`, noheartbeat: true });
  for (const id of ['b1', 'b2', 'b3', 'b4', 'b5']) await registerNode(id);
  await registerNode('b6', { arch: 'arm64' });
});

describe('POST /v1/orgs/{org}/patterns/{pattern}/search', () => {
  const search = (auth: Auth, body: Record<string, unknown>) =>
    invoke(searchPattern, { auth, path: { organization: ORG, pattern: 'pat' }, body });

  it('returns registered, heartbeating nodes of the pattern, by arch when asked', async () => {
    const all = await search(who.agbot as Auth, { serviceUrl: 'ssvc/web' });
    expect(all.status).toBe(201);
    expect(ids(all.body)).toEqual([`${ORG}/p1`, `${ORG}/p2`]);
    expect(all.body.nodes.find((n: { id: string }) => n.id === `${ORG}/p1`)).toEqual({
      id: `${ORG}/p1`,
      nodeType: 'device',
      publicKey: 'key-of-p1',
    });
    expect(all.body.lastIndex).toBe(0);
    expect(ids((await search(who.agbot as Auth, { serviceUrl: 'web', arch: 'arm64' })).body)).toEqual([
      `${ORG}/p2`,
    ]);
    expect(ids((await search(ROOT, { serviceUrl: 'ssvc/web', arch: '*' })).body)).toEqual([
      `${ORG}/p1`,
      `${ORG}/p2`,
    ]);
  });

  it('skips a node with an agreement for the service in a state; an empty state does not count', async () => {
    await agree('p1', 'agp1', 'ssvc/web', '');
    expect(ids((await search(who.agbot as Auth, { serviceUrl: 'ssvc/web' })).body)).toContain(`${ORG}/p1`);
    await agree('p1', 'agp1', 'ssvc/web', 'Finalized Agreement');
    expect(ids((await search(who.agbot as Auth, { serviceUrl: 'ssvc/web' })).body)).toEqual([`${ORG}/p2`]);
    const gone = await invoke(deleteAgreement, {
      auth: nodeAuth('p1'),
      path: { organization: ORG, node: 'p1', agid: 'agp1' },
    });
    expect(gone.status).toBe(204);
    expect(ids((await search(who.agbot as Auth, { serviceUrl: 'ssvc/web' })).body)).toEqual([
      `${ORG}/p1`,
      `${ORG}/p2`,
    ]);
  });

  it('applies secondsStale to the heartbeat', async () => {
    const later = searchPattern.withDeps({ clock: { now: () => new Date(Date.now() + 3_600_000) } });
    const stale = await invoke(later, {
      auth: who.agbot as Auth,
      path: { organization: ORG, pattern: 'pat' },
      body: { serviceUrl: 'ssvc/web', secondsStale: 60 },
    });
    expect(stale.status).toBe(404);
    expect(stale.body).toEqual({ nodes: [], lastIndex: 0 });
  });

  it('refuses bad input and callers upstream refuses; an agbot finds only what it serves', async () => {
    expect((await search(who.agbot as Auth, { serviceUrl: 'ssvc/other' })).body.msg).toBe(
      `invalid input: the serviceUrl 'ssvc/other' specified in search body does not exist in pattern '${ORG}/pat'`,
    );
    const missing = await invoke(searchPattern, {
      auth: ROOT,
      path: { organization: ORG, pattern: 'nope' },
      body: { serviceUrl: 'x' },
    });
    expect(missing.body.msg).toBe(`invalid input: pattern '${ORG}/nope' not found`);
    expect((await search(who.agbot as Auth, { serviceUrl: 'ssvc/web', secondsStale: -1 })).status).toBe(400);
    expect((await search(who.agbot as Auth, { serviceUrl: 'ssvc/web', changedSince: 5 })).status).toBe(400);
    expect((await search(who.user as Auth, { serviceUrl: 'ssvc/web' })).status).toBe(403);
    expect((await search(nodeAuth('p1'), { serviceUrl: 'ssvc/web' })).status).toBe(403);
    expect((await search(who.otherAgbot as Auth, { serviceUrl: 'ssvc/web' })).status).toBe(403);
    expect((await search(who.idle as Auth, { serviceUrl: 'ssvc/web' })).status).toBe(404);
    expect((await search(who.mt as Auth, { serviceUrl: 'ssvc/web' })).status).toBe(201);
  });
});

describe('POST /v1/orgs/{org}/business/policies/{policy}/search', () => {
  const search = (auth: Auth, body: Record<string, unknown>, handler = searchPolicy) =>
    invoke(handler, { auth, path: { organization: ORG, policy: 'pol' }, body });
  const policyNodes = [`${ORG}/b1`, `${ORG}/b2`, `${ORG}/b3`, `${ORG}/b4`, `${ORG}/b5`];

  it('returns the policy nodes of the arch with no agreement for the service, oldest first', async () => {
    const all = await search(who.agbot as Auth, {});
    expect(all.status).toBe(201);
    expect(ids(all.body)).toEqual(policyNodes);
    expect(all.body.offsetUpdated).toBe(false);
    await agree('b5', 'agb5', 'ssvc/web', 'signed');
    await agree('b4', 'agb4', 'ssvc/other', 'signed');
    expect(ids((await search(who.agbot as Auth, {})).body)).toEqual(policyNodes.slice(0, 4));
  });

  it('pages by lastUpdated with a session: every node once or more, none missed, offsets kept per agbot', async () => {
    const seen = new Set<string>();
    let offsetUpdates = 0;
    for (let page = 0; page < 10; page++) {
      const answer = await search(who.agbot as Auth, { numEntries: 2, session: 's1' });
      for (const id of ids(answer.body)) seen.add(id);
      if (answer.body.offsetUpdated) offsetUpdates++;
      if (answer.body.nodes.length < 2) break;
    }
    expect([...seen].sort()).toEqual(policyNodes.slice(0, 4));
    expect(offsetUpdates).toBeGreaterThan(0);
    // A full page keeps an offset for session s2; another session is then 409 carrying s2.
    const kept = await search(who.agbot as Auth, { numEntries: 1, session: 's2' });
    expect(kept.status).toBe(201);
    expect(kept.body.offsetUpdated).toBe(true);
    const conflict = await search(who.agbot as Auth, { numEntries: 1, session: 's3' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ agbot: who.agbot?.user, session: 's2' });
    expect(typeof conflict.body.offset).toBe('string');
    // Another agbot keeps its own paging.
    expect((await search(who.mt as Auth, { numEntries: 1, session: 's3' })).status).toBe(201);
    const adopted = await search(who.agbot as Auth, { numEntries: 1, session: 's2' });
    expect(adopted.status).toBe(201);
  });

  it('changedSince skips nodes not updated since', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    const none = await search(ROOT, { changedSince: future });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ nodes: [], offsetUpdated: false });
    expect(ids((await search(ROOT, { changedSince: 1 })).body)).toEqual(policyNodes.slice(0, 4));
  });

  it("answers upstream's errors, and costs the same few DynamoDB calls whatever the org holds", async () => {
    expect((await search(who.agbot as Auth, { changedSince: -1 })).status).toBe(400);
    expect((await search(who.agbot as Auth, { changedSince: '123456L' })).status).toBe(400);
    const missing = await invoke(searchPolicy, {
      auth: ROOT,
      path: { organization: ORG, policy: 'nope' },
      body: {},
    });
    expect(missing.body.msg).toBe(`invalid input: business policy '${ORG}/nope' not found`);
    expect((await search(who.user as Auth, {})).status).toBe(403);
    expect((await search(who.idle as Auth, {})).status).toBe(404);
    const before = dynamoCallCount();
    await search(ROOT, {});
    // Authentication (cached), the policy, one gsi2 Query: never a read per node.
    expect(dynamoCallCount() - before).toBeLessThanOrEqual(3);
  });
});

describe('node health', () => {
  it('pattern and org node health list heartbeats and agreement times since lastTime', async () => {
    await agree('p2', 'agp2', 'ssvc/web', 'signed');
    const pattern = await invoke(patternNodeHealth, {
      auth: who.agbot as Auth,
      path: { organization: ORG, pattern: 'pat' },
      body: { lastTime: '' },
    });
    expect(pattern.status).toBe(201);
    expect(Object.keys(pattern.body.nodes).sort()).toEqual([`${ORG}/p1`, `${ORG}/p2`, `${ORG}/p3`]);
    expect(Object.keys(pattern.body.nodes[`${ORG}/p2`].agreements)).toEqual(['agp2']);
    const org = await invoke(nodeHealth, {
      auth: who.agbot as Auth,
      path: { organization: ORG },
      body: { lastTime: '' },
    });
    expect(Object.keys(org.body.nodes).sort()).toEqual([...policyNodesAll()]);
    const future = await invoke(nodeHealth, {
      auth: who.agbot as Auth,
      path: { organization: ORG },
      body: { lastTime: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.status).toBe(404);
    expect(future.body).toEqual({ nodes: {} });
    expect(
      (
        await invoke(nodeHealth, {
          auth: who.user as Auth,
          path: { organization: ORG },
          body: { lastTime: '' },
        })
      ).status,
    ).toBe(403);
  });
});

const policyNodesAll = () => ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'].map((id) => `${ORG}/${id}`);

describe('an org`s agbot and IBM`s public pattern (issue 32)', () => {
  // sother's agbot serves IBM's public pattern to sother's nodes, as upstream's agbot driver
  // declares it: it finds its own org's nodes of the pattern, never another org's.
  const asked = { nodeOrgids: ['sother', ORG] };

  beforeAll(async () => {
    await seedPattern('IBM', 'pubpat', { public: true, services: [SERVICE] });
    await seedPattern('IBM', 'privpat', { services: [SERVICE] });
    await registerNode('own1', { pattern: 'IBM/pubpat' });
    const admin = await createUser('sother', 'oadmin', { admin: true });
    const node = await invoke(putNode, {
      auth: admin,
      path: { organization: 'sother', node: 'o1' },
      body: { name: 'o1', token: 'o1-token', pattern: 'IBM/pubpat', publicKey: 'k', arch: 'amd64' },
    });
    expect(node.status, node.text).toBe(201);
    const declared = await invoke(servePattern, {
      auth: who.otherAgbot as Auth,
      path: { organization: 'sother', agreementbot: 'ag2' },
      body: { patternOrgid: 'IBM', pattern: '*', nodeOrgid: 'sother' },
    });
    expect(declared.status, declared.text).toBe(201);
  });

  it('searches the public pattern for its own org`s nodes only', async () => {
    const found = await invoke(searchPattern, {
      auth: who.otherAgbot as Auth,
      path: { organization: 'IBM', pattern: 'pubpat' },
      body: { serviceUrl: 'ssvc/web', ...asked },
    });
    expect(found.status, found.text).toBe(201);
    expect(ids(found.body)).toEqual(['sother/o1']);
    const health = await invoke(patternNodeHealth, {
      auth: who.otherAgbot as Auth,
      path: { organization: 'IBM', pattern: 'pubpat' },
      body: { lastTime: '', ...asked },
    });
    expect(health.status, health.text).toBe(201);
    expect(Object.keys(health.body.nodes)).toEqual(['sother/o1']);
  });

  it('still gets 403 for a private pattern of IBM, and for IBM`s node health', async () => {
    for (const handler of [searchPattern, patternNodeHealth]) {
      const refused = await invoke(handler, {
        auth: who.otherAgbot as Auth,
        path: { organization: 'IBM', pattern: 'privpat' },
        body: { serviceUrl: 'ssvc/web', lastTime: '', ...asked },
      });
      expect(refused.status).toBe(403);
    }
    const orgHealth = await invoke(nodeHealth, {
      auth: who.otherAgbot as Auth,
      path: { organization: 'IBM' },
      body: { lastTime: '', ...asked },
    });
    expect(orgHealth.status).toBe(403);
  });
});
