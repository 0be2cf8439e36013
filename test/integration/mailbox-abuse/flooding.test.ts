/**
 * Issue 23, item 3: one sender must not silence someone else's mailbox. Through the real handlers
 * on DynamoDB Local: an agbot of the node's org sends 1,000 large messages at once; the node still
 * reads its mailbox in bounded pages, finds the real agbot's message among them, and answers it.
 */
import { describe, expect, it } from 'vitest';
import { handler as listAgbotMessages } from '#functions/agbot-messages/list-messages';
import { handler as postAgbotMessage } from '#functions/agbot-messages/post-message';
import { handler as deleteNodeMessage } from '#functions/node-messages/delete-message';
import { handler as listNodeMessages } from '#functions/node-messages/list-messages';
import { handler as postNodeMessage } from '#functions/node-messages/post-message';
import { getConfig } from '#lib/config';
import { MAX_MESSAGES_PER_READ, READ_BUDGET_BYTES } from '#lib/mailbox';
import { createOrg, createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';
import { createSender } from '../agbot-messages/fixtures.ts';
import { createSendingAgbot } from '../node-messages/fixtures.ts';

useTestTable();

/** Runs `work` for 0…count-1, `lanes` at a time. */
async function inParallel<T>(count: number, lanes: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

describe('a flooded mailbox', () => {
  it("lets the node read and answer its agbot's message although another agbot sent it 1,000 large messages", async () => {
    await createOrg('flood');
    await createUser('flood', 'alice');
    await createUser('flood', 'mallory');
    const agbot = await createSendingAgbot('flood', 'a1', 'flood/alice');
    const flooder = await createSendingAgbot('flood', 'noisy', 'flood/mallory');
    const node = await createSender('flood', 'n1', 'flood/alice');
    const nodePath = { organization: 'flood', node: 'n1' };
    const { maxMessageBytesPerSender, maxMessagesPerSender } = getConfig().limits;

    // 1,000 messages of 40 KB: the sender's byte share (3 MB) ends it after 75, the rest are refused.
    const big = 'x'.repeat(40_000);
    const flood = await inParallel(1000, 4, () =>
      invoke(postNodeMessage, { auth: flooder, path: nodePath, body: { message: big, ttl: 3600 } }),
    );
    const stored = flood.filter((r) => r.status === 201).length;
    const refused = flood.filter((r) => r.status !== 201);
    expect(stored).toBe(Math.min(maxMessagesPerSender, Math.floor(maxMessageBytesPerSender / big.length)));
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([429]));
    expect(refused[0]?.body.msg).toMatch(/flood\/noisy.*limits\.maxMessageBytesPerSender/);

    // The real agbot still gets its proposal in.
    const proposal = await invoke(postNodeMessage, {
      auth: agbot,
      path: nodePath,
      body: { message: 'proposal', ttl: 3600 },
    });
    expect(proposal.status).toBe(201);

    // The node reads page after page, each bounded, deleting what it cannot use, until it finds it.
    let after = 0;
    let found: { msgId: number; agbotId: string; message: string } | undefined;
    for (let page = 0; page < 50 && !found; page++) {
      const query = { maxmsgs: '1000', ...(after > 0 ? { after: String(after) } : {}) };
      const read = await invoke(listNodeMessages, { auth: node, path: nodePath, query });
      expect(read.status).toBe(200);
      expect(read.body.messages.length).toBeLessThanOrEqual(MAX_MESSAGES_PER_READ);
      expect(Buffer.byteLength(read.text)).toBeLessThanOrEqual(READ_BUDGET_BYTES);
      for (const message of read.body.messages) {
        if (message.agbotId === 'flood/a1') found = message;
        else {
          const msgid = String(message.msgId);
          expect((await invoke(deleteNodeMessage, { auth: node, path: { ...nodePath, msgid } })).status).toBe(
            204,
          );
        }
        after = message.msgId;
      }
    }
    expect(found?.message).toBe('proposal');

    // And answers it: the agbot reads the reply.
    const agbotPath = { organization: 'flood', agreementbot: 'a1' };
    const reply = await invoke(postAgbotMessage, {
      auth: node,
      path: agbotPath,
      body: { message: 'reply', ttl: 3600 },
    });
    expect(reply.status).toBe(201);
    const inbox = await invoke(listAgbotMessages, { auth: agbot, path: agbotPath });
    expect(inbox.body.messages.map((m: { message: string }) => m.message)).toEqual(['reply']);

    // The flooder's share came back as its messages were deleted: it may send again.
    const again = await invoke(postNodeMessage, {
      auth: flooder,
      path: nodePath,
      body: { message: 'm', ttl: 60 },
    });
    expect(again.status).toBe(201);
  }, 180_000); // 1,000 requests through the handlers: seconds on an idle machine, more on a busy one
});
