import { beforeAll, describe, expect, it } from 'vitest';
import { handler as deleteAgbotMessage } from '#functions/agbot-messages/delete-message';
import { handler as listAgbotMessages } from '#functions/agbot-messages/list-messages';
import { handler as postAgbotMessage } from '#functions/agbot-messages/post-message';
import { handler as deleteNodeMessage } from '#functions/node-messages/delete-message';
import { handler as listNodeMessages } from '#functions/node-messages/list-messages';
import { handler as postNodeMessage } from '#functions/node-messages/post-message';
import { dynamoCallCount } from '#tables/client';
import { createNode, createOrg, createUser } from '#test/support/identities';
import { type InvokeOptions, invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSender } from '../agbot-messages/fixtures.ts';
import { createSendingAgbot } from './fixtures.ts';

useTestTable();

type Handler = Parameters<typeof invoke>[0];
type Auth = { user: string; secret: string };
let agbot: Auth;
let node: Auth;

/** DynamoDB calls of one warm request (the identity is remembered, so authentication costs none). */
async function callsOf(handler: Handler, options: InvokeOptions, status: number): Promise<number> {
  await invoke(handler, options);
  const before = dynamoCallCount();
  const result = await invoke(handler, options);
  expect(result.status).toBe(status);
  return dynamoCallCount() - before;
}

beforeAll(async () => {
  await createOrg('calls');
  await createUser('calls', 'alice');
  agbot = await createSendingAgbot('calls', 'a1', 'calls/alice');
  node = await createSender('calls', 'n1', 'calls/alice');
  await createNode('calls', 'n2', 'calls/alice');
});

describe('DynamoDB calls of the mailboxes, warm', () => {
  const message = { message: 'm', ttl: 3600 };

  // The id and place are taken by an ADD before the message's transaction, so that a burst of
  // senders into one mailbox queue on the counter instead of failing and retrying (tables/mailbox/post.ts).
  it("POST of an agbot message: 2 (the id and place, one TransactWriteItems; the node's key came with its identity; the org counter moves from the stream)", async () => {
    const path = { organization: 'calls', agreementbot: 'a1' };
    expect(await callsOf(postAgbotMessage, { auth: node, path, body: message }, 201)).toBe(2);
  });

  it('POST of a node message: 3 the first time, then 2 (the agbot key remembered: the id and place, one TransactWriteItems)', async () => {
    const path = { organization: 'calls', node: 'n1' };
    const before = dynamoCallCount();
    expect((await invoke(postNodeMessage, { auth: agbot, path, body: message })).status).toBe(201);
    // Its first request here: its identity's GetItem, then the BatchGetItem, the id and the transaction.
    expect(dynamoCallCount() - before, 'first post of this agbot here').toBe(4);
    expect(await callsOf(postNodeMessage, { auth: agbot, path, body: message }, 201)).toBe(2);
  });

  it('DELETE of a message: 2 (one BatchGetItem of the agbot and the message, one TransactWriteItems)', async () => {
    const path = { organization: 'calls', agreementbot: 'a1' };
    const posted = await invoke(postAgbotMessage, { auth: node, path, body: message });
    const msgId = String(posted.body.msg).match(/\d+/)?.[0] ?? '';
    const before = dynamoCallCount();
    const result = await invoke(deleteAgbotMessage, { auth: agbot, path: { ...path, message: msgId } });
    expect(result.status).toBe(204);
    expect(dynamoCallCount() - before).toBe(2);
  });

  it('DELETE of its own message by the node: 1 (one TransactWriteItems; its credentials authorize it, no share given back)', async () => {
    const path = { organization: 'calls', node: 'n1' };
    const listed = await invoke(listNodeMessages, { auth: node, path });
    const msgid = String(listed.body.messages[0].msgId);
    const before = dynamoCallCount();
    const result = await invoke(deleteNodeMessage, { auth: node, path: { ...path, msgid } });
    expect(result.status).toBe(204);
    expect(dynamoCallCount() - before).toBe(1);
  });

  it('GET of its own mailbox by the agbot or the node: 1 (one Query; its credentials authorize it)', async () => {
    expect(
      await callsOf(
        listAgbotMessages,
        { auth: agbot, path: { organization: 'calls', agreementbot: 'a1' } },
        200,
      ),
    ).toBe(1);
    expect(
      await callsOf(listNodeMessages, { auth: node, path: { organization: 'calls', node: 'n1' } }, 200),
    ).toBe(1);
  });

  it('GET of a mailbox by anyone else: 2 (the owner for authorization, one Query)', async () => {
    const admin = { user: 'calls/alice', secret: 'alice-pw' };
    expect(
      await callsOf(
        listAgbotMessages,
        { auth: admin, path: { organization: 'calls', agreementbot: 'a1' } },
        200,
      ),
    ).toBe(2);
    expect(
      await callsOf(listNodeMessages, { auth: admin, path: { organization: 'calls', node: 'n1' } }, 200),
    ).toBe(2);
  });
});
