import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getMaxChangeId } from '#functions/changes/get-max-change-id';
import { handler as postChanges } from '#functions/changes/post-changes';
import { handler as patchOrg } from '#functions/orgs/patch-org';
import { type Change, maxChangeId, recordChanges, sequencePendingChanges } from '#tables/feed/changes';
import { getNode } from '#tables/node/records';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
const who: Record<string, Auth> = {};
const org = { organization: 'acme' };
const change = (
  id: string,
  resource: string,
  operation: Change['operation'] = 'created',
  org = 'acme',
): Change => ({
  org,
  id,
  resource,
  operation,
});

/** Every change id a caller reads by paging from `from` with `maxRecords`, and the pages' id ranges. */
async function readAll(auth: Auth, from: number, maxRecords: number) {
  const ids: number[] = [];
  const pages: number[][] = [];
  for (let cursor = from; ; ) {
    const { status, body } = await invoke(postChanges, {
      auth,
      path: org,
      body: { changeId: cursor, maxRecords },
    });
    expect(status).toBe(201);
    const page = (body.changes as { resourceChanges: { changeId: number }[] }[]).flatMap((c) =>
      c.resourceChanges.map((r) => r.changeId),
    );
    if (page.length === 0) return { ids, pages };
    expect(page.length).toBeLessThanOrEqual(maxRecords);
    expect(body.hitMaxRecords).toBe(page.length === maxRecords);
    ids.push(...page);
    pages.push(page);
    cursor = body.mostRecentChangeId + 1;
  }
}

beforeAll(async () => {
  await createOrg('acme');
  await createOrg('other');
  who.admin = await createUser('acme', 'admin', { admin: true });
  who.user = await createUser('acme', 'bob');
  who.hub = await createUser('root', 'hub', { hubAdmin: true });
  who.n1 = await createNode('acme', 'n1', 'acme/bob');
  who.n2 = await createNode('acme', 'n2', 'acme/bob');
  who.agbot = await createAgbot('acme', 'a1', 'acme/admin');
  who.mt = await createAgbot('IBM', 'mt', 'acme/admin');
  who.otherUser = await createUser('other', 'carol', { admin: true });
});

describe('POST /v1/orgs/{organization}/changes', () => {
  it('answers an empty body with no changes (maxRecords 0) and the newest id', async () => {
    await recordChanges([change('acme', 'org', 'modified')]);
    const { status, body } = await invoke(postChanges, { auth: who.admin as Auth, path: org, body: {} });
    expect(status).toBe(201);
    expect(body).toEqual({
      changes: [],
      mostRecentChangeId: await maxChangeId(),
      hitMaxRecords: false,
      exchangeVersion: '2.154.0',
    });
  });

  it.each([
    [{ changeId: -1 }, 'changeId'],
    [{ changeId: 'x' }, 'changeId'],
    [{ maxRecords: 1.5 }, 'maxRecords'],
    [{ lastUpdated: 'yesterday' }, 'lastUpdated'],
    [{ orgList: 'acme' }, 'orgList'],
    [{ changeID: 1 }, 'changeID'],
  ])('refuses %o with a 400 naming %s', async (body, field) => {
    const { status, body: answer } = await invoke(postChanges, { auth: who.admin as Auth, path: org, body });
    expect(status).toBe(400);
    expect(answer.msg).toContain(field);
  });

  it('groups changes per resource with the latest operation, and shows a real write (org PATCH)', async () => {
    const start = (await maxChangeId()) + 1;
    await recordChanges([change('n1', 'node', 'created/modified')]);
    await recordChanges([change('n1', 'node', 'modified'), change('n2', 'node', 'deleted')]);
    const patched = await invoke(patchOrg, { auth: ROOT, path: org, body: { label: 'new label' } });
    expect(patched.status).toBe(201);
    const { body } = await invoke(postChanges, {
      auth: who.admin as Auth,
      path: org,
      body: { changeId: start, maxRecords: 100 },
    });
    expect(
      body.changes.map(
        (c: { id: string; resource: string; operation: string; resourceChanges: unknown[] }) => [
          c.id,
          c.resource,
          c.operation,
          c.resourceChanges.length,
        ],
      ),
    ).toEqual([
      ['n1', 'node', 'modified', 2],
      ['n2', 'node', 'deleted', 1],
      ['acme', 'org', 'modified', 1],
    ]);
    expect(body.mostRecentChangeId).toBe(start + 3);
    expect(body.hitMaxRecords).toBe(false);
  });

  it('shows nodes org and catalog rows and their own node rows only; hides node messages and created agreements from agbots, shows them node statuses', async () => {
    const start = (await maxChangeId()) + 1;
    await recordChanges([
      change('n1', 'nodepolicies'),
      change('n2', 'nodepolicies'),
      change('n1', 'nodemsgs'),
      change('n2', 'nodestatus'),
      change('svc_1_amd64', 'service'),
      change('a1', 'agbotagreements', 'created/modified'),
      change('a1', 'agbotagreements', 'deleted'),
      change('pat', 'pattern'),
    ]);
    // The signal dispatcher numbers what is written before a node reads it.
    await sequencePendingChanges();
    const read = async (auth: Auth) =>
      (
        await invoke(postChanges, { auth, path: org, body: { changeId: start, maxRecords: 100 } })
      ).body.changes.map(
        (c: { id: string; resource: string; operation: string }) => `${c.resource}:${c.id}:${c.operation}`,
      );
    expect(await read(who.n1 as Auth)).toEqual([
      'nodepolicies:n1:created',
      'nodemsgs:n1:created',
      'service:svc_1_amd64:created',
    ]);
    expect(await read(who.agbot as Auth)).toEqual([
      'nodepolicies:n1:created',
      'nodepolicies:n2:created',
      'nodestatus:n2:created',
      'service:svc_1_amd64:created',
      'agbotagreements:a1:deleted',
      'pattern:pat:created',
    ]);
    expect(await read(who.admin as Auth)).toHaveLength(7);
  });

  it('shows public rows of other orgs to every org, private ones only to their org or an org list of root', async () => {
    const start = (await maxChangeId()) + 1;
    await recordChanges([
      { ...change('pubsvc', 'service', 'created', 'other'), public: true },
      change('privsvc', 'service', 'created', 'other'),
    ]);
    await sequencePendingChanges();
    const ids = async (auth: Auth, body: Record<string, unknown> = {}) =>
      (
        await invoke(postChanges, { auth, path: org, body: { changeId: start, maxRecords: 100, ...body } })
      ).body.changes.map((c: { orgId: string; id: string }) => `${c.orgId}/${c.id}`);
    expect(await ids(who.n1 as Auth)).toEqual(['other/pubsvc']);
    expect(await ids(who.admin as Auth, { orgList: ['other'] })).toEqual(['other/pubsvc']);
    expect(await ids(ROOT, { orgList: ['other'] })).toEqual(['other/pubsvc', 'other/privsvc']);
    expect(await ids(who.mt as Auth, { orgList: ['*'] })).toEqual(['other/pubsvc', 'other/privsvc']);
  });

  it('heartbeats a node caller; refuses other orgs and answers 401 without credentials', async () => {
    expect((await getNode('acme', 'n2'))?.lastHeartbeat).toBeUndefined();
    await invoke(postChanges, { auth: who.n2 as Auth, path: org, body: {} });
    expect((await getNode('acme', 'n2'))?.lastHeartbeat).toBeDefined();
    expect((await invoke(postChanges, { auth: who.otherUser as Auth, path: org, body: {} })).status).toBe(
      403,
    );
    expect((await invoke(postChanges, { path: org, body: {} })).status).toBe(401);
  });

  it('lets a reader paging with maxRecords 7 see every change of 10 interleaved writers once, in changeId order', async () => {
    const start = (await maxChangeId()) + 1;
    await Promise.all(
      Array.from({ length: 10 }, async (_, writer) => {
        for (let i = 0; i < 6; i++) await recordChanges([change(`w${writer}`, 'nodepolicies', 'modified')]);
      }),
    );
    const { ids, pages } = await readAll(who.admin as Auth, start, 7);
    expect(ids.length).toBe(60);
    expect(new Set(ids).size).toBe(60);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => start + i));
    for (let p = 1; p < pages.length; p++) {
      expect(Math.min(...(pages[p] as number[]))).toBeGreaterThan(Math.max(...(pages[p - 1] as number[])));
    }
  });

  it('adds no row for a rejected write', async () => {
    const before = await maxChangeId();
    const refused = await invoke(patchOrg, { auth: who.user as Auth, path: org, body: { label: 'x' } });
    expect(refused.status).toBe(403);
    const bad = await invoke(patchOrg, { auth: ROOT, path: org, body: { label: 5 } });
    expect(bad.status).toBe(400);
    expect(await maxChangeId()).toBe(before);
  });
});

describe('GET /v1/changes/maxchangeid', () => {
  it('answers nodes, agbots, org admins and root; refuses users and hub admins', async () => {
    const expected = await maxChangeId();
    for (const auth of [who.n1, who.agbot, who.admin, ROOT]) {
      const { status, body } = await invoke(getMaxChangeId, { auth: auth as Auth });
      expect(status).toBe(200);
      expect(body).toEqual({ maxChangeId: expected });
    }
    expect((await invoke(getMaxChangeId, { auth: who.user as Auth })).status).toBe(403);
    expect((await invoke(getMaxChangeId, { auth: who.hub as Auth })).status).toBe(403);
  });
});
