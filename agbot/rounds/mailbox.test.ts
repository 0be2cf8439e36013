/**
 * The agbot's mailbox reader against a paged mailbox on loopback (issue 23): it reads page after
 * page with `maxmsgs` and `after`, deletes what it cannot use, and keeps a message about an
 * agreement it does not know only for the grace period.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildVerifyReply, serializeMessage } from '#lib/protocol/build-message';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, generateMessagingKeys } from '#lib/protocol/keys';
import { MAILBOX_PAGE_SIZE } from '#lib/protocol/mailbox-pages';
import { agbotExchange } from '../exchange.ts';
import { messagingKeys } from '../keys.ts';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { startFakeMailbox } from '../test-support/fake-mailbox.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import type { RoundContext } from './context.ts';
import { readMailbox } from './mailbox.ts';
import { SEARCH_MAX_PAGES, PAGE_SIZE as SEARCH_PAGE_SIZE } from './search.ts';

const NOW = Date.parse('2031-01-01T00:00:00.000Z');
const node = generateMessagingKeys();
const nodePubKey = exchangePublicKey(node.publicKey);
const unknownAgreement = 'a'.repeat(64);

let dir: string;
let store: SqliteAgbotStore;
let mailbox: Awaited<ReturnType<typeof startFakeMailbox>>;
let ctx: RoundContext;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agbot-mailbox-'));
  store = SqliteAgbotStore.open(dir);
  mailbox = await startFakeMailbox('acme', 'bot');
  const exchange = agbotExchange({
    baseUrl: mailbox.url,
    org: 'acme',
    id: 'bot',
    token: 't',
    timeoutMs: 5000,
  });
  ctx = testRoundContext({ store, exchange, keys: await messagingKeys(store), now: () => NOW });
});
afterEach(async () => {
  ctx.exchange.close();
  await mailbox.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A message the node sealed for this agbot about an agreement the agbot never made. */
const aboutUnknownAgreement = (msgId: number, sentMsAgo: number) => ({
  msgId,
  nodeId: 'acme/n1',
  nodePubKey,
  message: seal(
    serializeMessage(buildVerifyReply(unknownAgreement, true)),
    node.privateKey,
    ctx.keys.publicKey,
  ),
  timeSent: new Date(NOW - sentMsAgo).toISOString(),
});

/** Messages 1..count in the mailbox that no one can open (junk, from a node of the org). */
function postJunk(count: number): void {
  for (let msgId = 1; msgId <= count; msgId++) {
    mailbox.messages.push({
      msgId,
      nodeId: 'acme/n1',
      nodePubKey,
      message: `junk ${msgId}`,
      timeSent: new Date(NOW).toISOString(),
    });
  }
}

describe('the agbot reads its mailbox in pages', () => {
  it("reads in one round as many messages as a round's search proposes to, and no more", async () => {
    const perRound = SEARCH_MAX_PAGES * SEARCH_PAGE_SIZE;
    postJunk(perRound + 10);
    expect(await readMailbox(ctx)).toBe(perRound);
    expect(mailbox.messages.map((m) => m.msgId)).toEqual(
      Array.from({ length: 10 }, (_, i) => perRound + 1 + i),
    );
    // A round past its deadline leaves the rest for the next one.
    expect(await readMailbox({ ...ctx, deadline: NOW })).toBe(0);
    expect(mailbox.messages).toHaveLength(10);
  });

  it('reads every page with maxmsgs and after, and deletes the 120 messages it cannot open', async () => {
    postJunk(120);
    expect(await readMailbox(ctx)).toBe(120);
    expect(mailbox.messages).toEqual([]);
    expect(mailbox.reads).toEqual([
      { maxmsgs: String(MAILBOX_PAGE_SIZE), after: null },
      { maxmsgs: String(MAILBOX_PAGE_SIZE), after: '50' },
      { maxmsgs: String(MAILBOX_PAGE_SIZE), after: '100' },
      { maxmsgs: String(MAILBOX_PAGE_SIZE), after: '120' },
    ]);
  });

  it('keeps messages about unknown agreements for the grace period, reads past them, and deletes them after it', async () => {
    const grace = ctx.settings.unknownMessageGraceMs;
    for (let msgId = 1; msgId <= 60; msgId++) mailbox.messages.push(aboutUnknownAgreement(msgId, 60_000));
    mailbox.messages.push(aboutUnknownAgreement(61, grace));
    mailbox.messages.push({ ...aboutUnknownAgreement(62, 0), message: 'junk behind them' });
    expect(await readMailbox(ctx)).toBe(2);
    // The 60 recent ones wait (a reply may race its agreement's record); the old one and the junk are gone.
    expect(mailbox.messages.map((m) => m.msgId)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(mailbox.reads.map((r) => r.after)).toEqual([null, '50', '62']);

    ctx.now = () => NOW + grace;
    expect(await readMailbox(ctx)).toBe(60);
    expect(mailbox.messages).toEqual([]);
  });
});
