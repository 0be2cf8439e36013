import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as postChanges } from '#functions/changes/post-changes';
import { handler as postHeartbeat } from '#functions/nodes/post-heartbeat';
import { documentClient, dynamoCallCount, tableName } from '#tables/client';
import { recordChanges, sequencePendingChanges } from '#tables/feed/changes';
import { feedKeys } from '#tables/feed/keys';
import { getNode } from '#tables/node/records';
import { dynamoUsageOf, totalUnits } from '#test/support/dynamo-usage';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

type Auth = { user: string; secret: string };
let node: Auth;
let owner: Auth;
const path = { organization: 'idle' };

/** Polls as an agent does: from the id after the last one seen. */
async function poll(changeId: number) {
  const answer = await invoke(postChanges, { auth: node, path, body: { changeId, maxRecords: 100 } });
  expect(answer.status).toBe(201);
  return answer.body as { changes: unknown[]; mostRecentChangeId: number };
}

beforeAll(async () => {
  await createOrg('idle');
  owner = await createUser('idle', 'owner');
  node = await createNode('idle', 'n1', 'idle/owner');
  await recordChanges([{ org: 'idle', id: 'n1', resource: 'node', operation: 'created' }]);
  // The signal dispatcher numbers what is written before a node reads it.
  await sequencePendingChanges();
});

describe('an idle node costs little (issue 24, item 3)', () => {
  it('an idle POST /changes is at most 2 DynamoDB calls and 2 capacity units, and still heartbeats', async () => {
    const began = Math.floor(Date.now() / 1000) * 1000;
    const first = await poll(0);
    expect(first.changes.length).toBeGreaterThan(0);
    const from = first.mostRecentChangeId + 1;
    await poll(from); // warm: the node's liveness item exists, its identity is cached
    let answer: Awaited<ReturnType<typeof poll>> | undefined;
    const calls = await dynamoUsageOf(async () => {
      answer = await poll(from);
    });
    expect(answer).toEqual(
      expect.objectContaining({ changes: [], mostRecentChangeId: first.mostRecentChangeId }),
    );
    expect(calls.map((c) => c.command).sort()).toEqual(['Query', 'UpdateItem']);
    expect(totalUnits(calls)).toBeLessThanOrEqual(2);
    expect(calls.every((c) => c.indexUnits === 0)).toBe(true);
    const stored = await getNode('idle', 'n1');
    expect(Date.parse(stored?.lastHeartbeat ?? '')).toBeGreaterThanOrEqual(began);
  });

  it('still returns a change recorded after the idle poll', async () => {
    const from = (await poll(0)).mostRecentChangeId + 1;
    await recordChanges([{ org: 'idle', id: 'n1', resource: 'nodepolicies', operation: 'modified' }]);
    await sequencePendingChanges();
    const answer = await poll(from);
    expect(answer.changes).toHaveLength(1);
    expect(answer.mostRecentChangeId).toBe(from);
  });

  it("a node's read neither numbers nor waits for a row just written; a user's read waits for it", async () => {
    const from = (await poll(0)).mostRecentChangeId + 1;
    const lease = (until: number) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: feedKeys.head(),
          UpdateExpression: 'SET numberer = :other, leasedUntil = :until',
          ExpressionAttributeValues: { ':other': 'another reader', ':until': until },
        }),
      );
    await lease(Date.now() + 10 * 60_000);
    await recordChanges([{ org: 'idle', id: 'n1', resource: 'nodepolicies', operation: 'modified' }]);
    let answer: Awaited<ReturnType<typeof poll>> | undefined;
    const calls = await dynamoUsageOf(async () => {
      answer = await poll(from);
    });
    // Answered at once with what is numbered: the signal dispatcher numbers the row before it
    // wakes the node, so the node leaves it alone (tables/feed/changes.ts NODE_NUMBERING_GRACE_MS).
    expect(answer).toEqual(expect.objectContaining({ changes: [], mostRecentChangeId: from - 1 }));
    expect(calls.map((c) => c.command).sort()).toEqual(['Query', 'UpdateItem']);
    // A user's read waits for the rows pending when it began: here until the lease is given up.
    const before = dynamoCallCount();
    const userRead = invoke(postChanges, { auth: owner, path, body: { changeId: from, maxRecords: 100 } });
    let userAnswered = false;
    void userRead.then(() => {
      userAnswered = true;
    });
    // It looked at the pending rows, tried the lease and looked again: still waiting.
    await expect.poll(() => dynamoCallCount() - before, { interval: 5 }).toBeGreaterThanOrEqual(4);
    expect(userAnswered).toBe(false);
    await lease(0);
    const read = await userRead;
    expect(read.status).toBe(201);
    expect((read.body as { mostRecentChangeId: number }).mostRecentChangeId).toBe(from);
  });

  it('a heartbeat costs at most 1 write unit and writes no index', async () => {
    const beat = () => invoke(postHeartbeat, { auth: node, path: { organization: 'idle', node: 'n1' } });
    await beat();
    let status = 0;
    const calls = await dynamoUsageOf(async () => {
      status = (await beat()).status;
    });
    expect(status).toBe(201);
    expect(calls).toEqual([{ command: 'UpdateItem', readUnits: 0, writeUnits: 1, indexUnits: 0 }]);
  });
});
