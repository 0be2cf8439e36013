import { describe, expect, it } from 'vitest';
import { handler as postAgbotMessage } from '#functions/agbot-messages/post-message';
import { handler as deleteAgbot } from '#functions/agbots/delete-agbot';
import { handler as postMessage } from '#functions/node-messages/post-message';
import { handler as deleteNode } from '#functions/nodes/delete-node';
import { handler as deleteUser } from '#functions/users/delete-user';
import { listMessages } from '#tables/agbot/message-records';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { listNodeMessages } from '#tables/node/message-records';
import { createNode, createOrg, createUser, ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useStreamCounts } from '#test/support/stream-counts';
import { useTestTable } from '#test/support/table';
import { createSender } from '../agbot-messages/fixtures.ts';
import { createSendingAgbot, partitionSortKeys } from './fixtures.ts';

useTestTable();
// The org counters of messages and agreements move from the table's stream (tables/org/stream-counts.ts).
const { orgCounts } = useStreamCounts();

const body = { message: 'hello', ttl: 600 };

describe('node messages and the lives of their node and agbot', () => {
  it('go with their node: the partition is emptied and the org uncounted; messages the node sent to agbots stay', async () => {
    await createOrg('life');
    const alice = await createUser('life', 'alice');
    const agbot = await createSendingAgbot('life', 'a1', 'life/alice');
    const node = await createSender('life', 'n1', 'life/alice');
    for (let i = 0; i < 3; i++) {
      expect(
        (await invoke(postMessage, { auth: agbot, path: { organization: 'life', node: 'n1' }, body })).status,
      ).toBe(201);
    }
    const reply = await invoke(postAgbotMessage, {
      auth: node,
      path: { organization: 'life', agreementbot: 'a1' },
      body,
    });
    expect(reply.status).toBe(201);
    expect((await orgCounts('life')).nodeMsgs).toBe(3);

    const deleted = await invoke(deleteNode, { auth: alice, path: { organization: 'life', node: 'n1' } });
    expect(deleted.status).toBe(204);
    expect(await partitionSortKeys(nodeKeys.record('life', 'n1').pk)).toEqual([]);
    expect((await orgCounts('life')).nodeMsgs).toBe(0);
    // Upstream keeps what a deleted node sent to agbots (docs/exchange.md#node-reads-and-deletes).
    expect((await listMessages('life', 'a1')).map((m) => m.nodeId)).toEqual(['life/n1']);

    // A node created again under the same id starts an empty mailbox at id 1.
    await createNode('life', 'n1', 'life/alice');
    const again = await invoke(postMessage, {
      auth: agbot,
      path: { organization: 'life', node: 'n1' },
      body,
    });
    expect(again.body.msg).toBe('node msg 1 inserted');
  });

  it("go with the agbot that sent them (docs/exchange.md#agbots), found without a Scan, other agbots' messages kept", async () => {
    await createOrg('gone');
    await createOrg('elsewhere');
    await createUser('gone', 'owner');
    // A multi-tenant agbot (org IBM): the only kind that may write to nodes of other orgs (issue 23).
    await createOrg('IBM');
    const owner = await createUser('IBM', 'owner');
    const doomed = await createSendingAgbot('IBM', 'doomed', 'IBM/owner');
    const keeper = await createSendingAgbot('gone', 'keeper', 'gone/owner');
    await createUser('elsewhere', 'eve');
    await createNode('gone', 'n1', 'gone/owner');
    await createNode('elsewhere', 'n2', 'elsewhere/eve');
    const to = (auth: typeof doomed, organization: string, node: string) =>
      invoke(postMessage, { auth, path: { organization, node }, body });
    expect((await to(doomed, 'gone', 'n1')).status).toBe(201);
    expect((await to(keeper, 'gone', 'n1')).status).toBe(201);
    expect((await to(doomed, 'gone', 'n1')).status).toBe(201);
    expect((await to(doomed, 'elsewhere', 'n2')).status).toBe(201);

    const deleted = await invoke(deleteAgbot, {
      auth: owner,
      path: { organization: 'IBM', agreementbot: 'doomed' },
    });
    expect(deleted.status).toBe(204);
    expect((await listNodeMessages('gone', 'n1')).map((m) => [m.msgId, m.agbotId])).toEqual([
      [2, 'gone/keeper'],
    ]);
    expect(await listNodeMessages('elsewhere', 'n2')).toEqual([]);
    expect((await orgCounts('gone')).nodeMsgs).toBe(1);
    expect((await orgCounts('elsewhere')).nodeMsgs).toBe(0);
    // The mailboxes' counts moved too: ids keep increasing, the count is exact.
    expect((await to(keeper, 'gone', 'n1')).body.msg).toBe('node msg 4 inserted');
  });

  it('refuses a message from an agbot that is being deleted (its cascade has started), storing nothing', async () => {
    await createOrg('late');
    await createUser('late', 'owner');
    const agbot = await createSendingAgbot('late', 'a1', 'late/owner');
    await createNode('late', 'n1', 'late/owner');
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('#tables/client');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: agbotKeys.record('late', 'a1'),
        UpdateExpression: 'SET deleting = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );
    const result = await invoke(postMessage, {
      auth: agbot,
      path: { organization: 'late', node: 'n1' },
      body,
    });
    expect(result.status).toBe(400);
    expect(result.body.msg).toBe('Invalid Input: agbot late/a1 not found');
    expect(await partitionSortKeys(nodeKeys.record('late', 'n1').pk)).toEqual(['NODE']);
  });

  it("go with their node when the node's owner is deleted, uncounted", async () => {
    await createOrg('owned');
    await createUser('owned', 'alice');
    await createUser('owned', 'bob');
    const agbot = await createSendingAgbot('owned', 'a1', 'owned/bob');
    await createNode('owned', 'n1', 'owned/alice');
    for (let i = 0; i < 2; i++) {
      const sent = await invoke(postMessage, {
        auth: agbot,
        path: { organization: 'owned', node: 'n1' },
        body,
      });
      expect(sent.status).toBe(201);
    }
    expect((await orgCounts('owned')).nodeMsgs).toBe(2);
    const deleted = await invoke(deleteUser, {
      auth: ROOT,
      path: { organization: 'owned', username: 'alice' },
    });
    expect(deleted.status).toBe(204);
    expect(await partitionSortKeys(nodeKeys.record('owned', 'n1').pk)).toEqual([]);
    expect((await orgCounts('owned')).nodeMsgs).toBe(0);
  });
});
