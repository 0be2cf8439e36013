/**
 * The node's mailbox reader (issue 23): it reads page after page (`maxmsgs`, `after`) and deletes
 * every message of a page before reading the next, so a crowded mailbox never needs one answer
 * larger than a page and every message in it is reached.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAILBOX_PAGE_SIZE } from '#lib/protocol/mailbox-pages';
import { credentials, loadNode } from '../node/record.ts';
import {
  type AgentUnderTest,
  NODE,
  nodeKey,
  registerNode,
  startAgentUnderTest,
  stopAgentUnderTest,
} from '../test-support/harness.ts';
import { deleteMessage } from './exchange-calls.ts';
import { readMailbox } from './messages.ts';
import type { NodeProtocol } from './node-protocol.ts';

let t: AgentUnderTest;
beforeEach(async () => {
  t = await startAgentUnderTest();
});
afterEach(async () => {
  await stopAgentUnderTest(t);
});

describe('the agent reads its mailbox in pages', () => {
  it('reads 130 messages in pages of maxmsgs after the last id, deleting each before the next page', async () => {
    await registerNode(t.agent, t.fake);
    const sent = new Date().toISOString();
    t.fake.nodeMessages.set(
      nodeKey,
      Array.from({ length: 130 }, (_, i) => ({
        msgId: i + 1,
        agbotId: `${NODE.org}/agbot`,
        agbotPubKey: 'not a key',
        message: `junk ${i + 1}`,
        timeSent: sent,
        timeExpires: sent,
      })),
    );
    const node = loadNode(t.agent.ctx.store);
    if (!node) throw new Error('the node is not registered');
    const { parts } = t.agent.ctx.protocol as NodeProtocol;
    expect(await readMailbox(parts, node, credentials(node))).toBe(130);
    expect(t.fake.nodeMessages.get(nodeKey)).toEqual([]);
    const size = String(MAILBOX_PAGE_SIZE);
    expect(t.fake.mailboxReads).toEqual([
      { maxmsgs: size, after: null },
      { maxmsgs: size, after: '50' },
      { maxmsgs: size, after: '100' },
      { maxmsgs: size, after: '130' },
    ]);
  });

  it('takes a 404 on a delete as done: a message deleted twice is not an error', async () => {
    await registerNode(t.agent, t.fake);
    const node = loadNode(t.agent.ctx.store);
    if (!node) throw new Error('the node is not registered');
    await expect(deleteMessage(t.agent.ctx, credentials(node), 999)).resolves.toBeUndefined();
  });
});
