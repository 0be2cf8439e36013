import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postChanges } from '#functions/changes/post-changes';
import { type Change, maxChangeId, recordChanges } from '#tables/feed/changes';
import { FEED_PAGES_PER_READ } from '#tables/feed/reads';
import { createAgbot, createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { commandsOf } from '../principals/support.ts';

useTestTable();

/**
 * One POST /changes reads a bounded number of feed pages, whatever lastUpdated, changeId and
 * maxRecords say (issue 23 item 7), and tells the reader where to continue, so nothing is skipped.
 */
type Auth = { user: string; secret: string };
const org = { organization: 'acme' };
const FEED = 700;
let admin: Auth;
let agbot: Auth;
let node: Auth;
let feedStart: number;

/** The feed's rows in transactions of 100 (change rows only), then numbered (one read numbers a bounded backlog). */
async function recordMany(changes: Change[]): Promise<void> {
  for (let i = 0; i < changes.length; i += 100) await recordChanges(changes.slice(i, i + 100));
  for (let before = -1, now = await maxChangeId(); now !== before; )
    [before, now] = [now, await maxChangeId()];
}

beforeAll(async () => {
  await createOrg('acme');
  admin = await createUser('acme', 'admin', { admin: true });
  await createUser('acme', 'bob');
  node = await createNode('acme', 'mine', 'acme/bob');
  agbot = await createAgbot('acme', 'ag', 'acme/bob');
  feedStart = (await maxChangeId()) + 1;
  // A big feed of other nodes' messages (hidden from agbots, and from node `mine`), then a row about `mine`.
  await recordMany(
    Array.from({ length: FEED }, (_, i) => ({
      org: 'acme',
      id: `other${i}`,
      resource: 'nodemsgs',
      operation: 'created' as const,
    })),
  );
  await recordMany([{ org: 'acme', id: 'mine', resource: 'nodepolicies', operation: 'modified' }]);
});

const post = (auth: Auth, body: Record<string, unknown>) => invoke(postChanges, { auth, path: org, body });

/** The DynamoDB Queries one request makes, and its answer. */
async function queriesOf(auth: Auth, body: Record<string, unknown>) {
  let result: Awaited<ReturnType<typeof post>> | undefined;
  const sent = await commandsOf(async () => {
    result = await post(auth, body);
  });
  if (!result) throw new Error('no answer');
  expect(result.status, result.text).toBe(201);
  return { queries: sent.filter((name) => name === 'QueryCommand').length, sent, body: result.body };
}

describe('POST /v1/orgs/{organization}/changes reads a bounded number of pages', () => {
  it('a lastUpdated in the future answers at once: no Query, one GetItem for the newest id (and one for the caller)', async () => {
    const { sent, body } = await queriesOf(admin, { lastUpdated: '2999-01-01T00:00:00Z', maxRecords: 1 });
    expect(body).toEqual({
      changes: [],
      mostRecentChangeId: await maxChangeId(),
      hitMaxRecords: false,
      exchangeVersion: '2.154.0',
    });
    // The caller's identity (cold cache) and the feed's sequence item: nothing else.
    expect(sent.filter((name) => name !== 'GetItemCommand')).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(2);
  });

  it('a reader whose rows are hidden reads at most the page budget per request and continues where it stopped', async () => {
    let cursor = feedStart;
    let requests = 0;
    const seen: string[] = [];
    for (;;) {
      requests += 1;
      expect(requests).toBeLessThan(100);
      const { queries, body } = await queriesOf(agbot, { changeId: cursor, maxRecords: 1 });
      // The budget, plus the one Query that looks for pending rows to number.
      expect(queries).toBeLessThanOrEqual(FEED_PAGES_PER_READ + 1);
      for (const change of body.changes as { id: string }[]) seen.push(change.id);
      expect(body.mostRecentChangeId).toBeGreaterThanOrEqual(cursor - 1);
      cursor = body.mostRecentChangeId + 1;
      if (!body.hitMaxRecords) break;
      if (seen.includes('mine')) break;
    }
    // The feed did not fit one request's budget, and the row about the node was not skipped.
    expect(requests).toBeGreaterThan(1);
    expect(seen).toEqual(['mine']);
  });

  it("a node reads its own feed: its row in one request of 2 Queries, however many other nodes' rows came before", async () => {
    const { queries, body } = await queriesOf(node, { changeId: feedStart, maxRecords: 1 });
    // The pending partition's head, then the node's own feed (nothing was numbered in the shared one).
    expect(queries).toBe(2);
    expect((body.changes as { id: string }[]).map((change) => change.id)).toEqual(['mine']);
    expect(body.hitMaxRecords).toBe(true);
  });

  it('a lastUpdated in the past with maxRecords 1 is bounded too, and paging by changeId sees every row once', async () => {
    const first = await queriesOf(admin, { lastUpdated: '2000-01-01T00:00:00Z', maxRecords: 1 });
    expect(first.queries).toBeLessThanOrEqual(FEED_PAGES_PER_READ + 1);
    expect(first.body.hitMaxRecords).toBe(true);
    const ids: number[] = [];
    for (let cursor = feedStart; ; ) {
      const { queries, body } = await queriesOf(admin, { changeId: cursor, maxRecords: 300 });
      expect(queries).toBeLessThanOrEqual(FEED_PAGES_PER_READ + 1);
      for (const change of body.changes as { resourceChanges: { changeId: number }[] }[])
        ids.push(...change.resourceChanges.map((r) => r.changeId));
      cursor = body.mostRecentChangeId + 1;
      if (!body.hitMaxRecords) break;
    }
    expect(ids.length).toBe(FEED + 1);
    expect(new Set(ids).size).toBe(FEED + 1);
  });

  it("root's org list of many orgs reads the all-orgs feed within the same budget", async () => {
    const orgList = Array.from({ length: 500 }, (_, i) => `org${i}`);
    const { queries, body } = await queriesOf(ROOT, { changeId: feedStart, maxRecords: 1, orgList });
    expect(queries).toBeLessThanOrEqual(FEED_PAGES_PER_READ + 1);
    expect(body.changes).toHaveLength(1);
  });
});
