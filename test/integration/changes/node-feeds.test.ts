import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postChanges } from '#functions/changes/post-changes';
import { documentClient, tableName } from '#tables/client';
import { type Change, maxChangeId, recordChanges, sequencePendingChanges } from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';
import { feedRows } from '#test/support/changes';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { commandsOf } from '../principals/support.ts';

useTestTable();

/**
 * The nodes' own feeds (tables/feed/keys.ts, tables/README.md "The change feed"): the numbering
 * puts a row about one node in that node's partition and a row every node may see in the shared
 * one, and a node reads those, never its org's whole feed. A feed numbered before they existed
 * (or by an older version during a deployment) is read the old way below where they begin.
 */
type Auth = { user: string; secret: string };
const ORG = 'nodefeeds';
let n1: Auth;

const row = (id: string, resource: string, extra: Partial<Change> = {}): Change => ({
  org: ORG,
  id,
  resource,
  operation: 'modified',
  ...extra,
});

const head = async () =>
  (
    await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: feedKeys.head(), ConsistentRead: true }),
    )
  ).Item ?? {};

/** A node's read from `changeId`: the rows it got (resource:id) and the Queries it made. */
async function nodeRead(changeId: number) {
  let body:
    | {
        changes: { resource: string; id: string; orgId: string; resourceChanges: { changeId: number }[] }[];
        mostRecentChangeId: number;
      }
    | undefined;
  const sent = await commandsOf(async () => {
    const answer = await invoke(postChanges, {
      auth: n1,
      path: { organization: ORG },
      body: { changeId, maxRecords: 100 },
    });
    expect(answer.status, answer.text).toBe(201);
    body = answer.body;
  });
  if (!body) throw new Error('no answer');
  return {
    rows: body.changes.map((c) => `${c.orgId}/${c.resource}:${c.id}`),
    ids: body.changes.flatMap((c) => c.resourceChanges.map((r) => r.changeId)),
    queries: sent.filter((name) => name === 'QueryCommand').length,
  };
}

beforeAll(async () => {
  await createOrg(ORG);
  await createUser(ORG, 'owner');
  n1 = await createNode(ORG, 'n1', `${ORG}/owner`);
});

describe("the nodes' own feeds", () => {
  it("places a node's rows in its feed, rows every node sees in the shared one, and marks the head", async () => {
    const start = (await maxChangeId()) + 1;
    await recordChanges([
      row('n1', 'nodepolicies'),
      row('n2', 'nodemsgs'),
      row('pat', 'pattern'),
      row('svc', 'service'),
      row('pubsvc', 'service', { org: 'elsewhere', public: true }),
    ]);
    await sequencePendingChanges();
    const ids = (rows: { changeId: number; resource: string; id: string }[]) =>
      rows.filter((r) => r.changeId >= start).map((r) => `${r.changeId - start}:${r.resource}:${r.id}`);
    expect(ids(await feedRows(feedKeys.nodePartition(ORG, 'n1')))).toEqual(['0:nodepolicies:n1']);
    expect(ids(await feedRows(feedKeys.nodePartition(ORG, 'n2')))).toEqual(['1:nodemsgs:n2']);
    expect(ids(await feedRows(feedKeys.nodesSharedPartition))).toEqual(['3:service:svc', '4:service:pubsvc']);
    // Every row is in its org's feed and every org's, as before.
    expect(ids(await feedRows(feedKeys.allPartition))).toHaveLength(5);
    const marks = await head();
    expect(marks.nodeFeedsFrom).toBeLessThanOrEqual(start);
    expect(marks.nodesSharedUpTo).toBe(start + 4);
  });

  it('a node reads its own rows and the shared ones of its org or public, in 3 Queries; then 2 while the shared feed is quiet', async () => {
    const start = (await maxChangeId()) + 1;
    await recordChanges([
      row('n1', 'nodepolicies'),
      row('n2', 'nodepolicies'),
      row('svc2', 'service'),
      row('private', 'service', { org: 'elsewhere' }),
      row('pub2', 'service', { org: 'elsewhere', public: true }),
    ]);
    // The signal dispatcher numbers what is written before a node reads it.
    await sequencePendingChanges();
    const first = await nodeRead(start);
    expect(first.rows).toEqual([`${ORG}/nodepolicies:n1`, `${ORG}/service:svc2`, 'elsewhere/service:pub2']);
    // The head, the node's feed, the shared feed.
    expect(first.queries).toBe(3);
    const next = (await maxChangeId()) + 1;
    await recordChanges([row('n2', 'nodestatus'), row('n1', 'nodeagreements')]);
    await sequencePendingChanges();
    const second = await nodeRead(next);
    expect(second.rows).toEqual([`${ORG}/nodeagreements:n1`]);
    expect(second.queries).toBe(2);
  });

  it('a lone row with many items still fits: 30 public service rows are numbered in order, none lost', async () => {
    const start = (await maxChangeId()) + 1;
    // Each takes 5 items (the pending row's delete and 4 copies): 24 of them would be 122 items.
    await recordChanges(
      Array.from({ length: 30 }, (_, i) => row(`p${i}`, 'service', { org: 'elsewhere', public: true })),
    );
    expect(await sequencePendingChanges()).toBe(start + 29);
    const shared = (await feedRows(feedKeys.nodesSharedPartition)).filter((r) => r.changeId >= start);
    expect(shared.map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => `p${i}`));
  });

  it('a feed numbered before the nodes’ feeds (or by an older version) is read from the org’s feed below where they begin', async () => {
    // A row numbered as an older version numbers: its copy in the node's feed removed, and the
    // head without the marks.
    const old = (await maxChangeId()) + 1;
    await recordChanges([row('n1', 'nodepolicies', { operation: 'created' })]);
    await sequencePendingChanges();
    await documentClient.send(
      new DeleteCommand({ TableName: tableName(), Key: feedKeys.ofNode(ORG, 'n1', old) }),
    );
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: feedKeys.head(),
        UpdateExpression: 'REMOVE nodeFeedsFrom, nodesSharedUpTo',
      }),
    );
    // While the head does not say, a node reads its org's feed.
    expect((await nodeRead(old)).rows).toEqual([`${ORG}/nodepolicies:n1`]);
    // The next numbering starts the nodes' feeds at its own first id.
    await recordChanges([row('n1', 'nodepolicies', { operation: 'deleted' })]);
    await sequencePendingChanges();
    expect((await head()).nodeFeedsFrom).toBe(old + 1);
    // From below it: the org's feed, both rows. From it on: the node's own feed.
    const below = await nodeRead(old);
    expect(below.rows).toEqual([`${ORG}/nodepolicies:n1`]);
    expect(below.ids).toEqual([old, old + 1]);
    const from = await nodeRead(old + 1);
    expect(from.queries).toBe(2);
    expect(from.ids).toEqual([old + 1]);
  });
});
