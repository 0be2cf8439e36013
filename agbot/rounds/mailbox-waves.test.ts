/**
 * A page of the agbot's mailbox is handled in waves (mailbox-page.ts): the page's agreements read
 * at once, a wave's finalizations saved at once, and a sender's second message handled after its
 * first, seeing what the first did. Over a real SQLite store; the Exchange is a recording
 * stand-in (the HTTP side of the mailbox is mailbox.test.ts's).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgbotAgreement, AgbotStore } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildCancel, buildReply, serializeMessage } from '#lib/protocol/build-message';
import { seal } from '#lib/protocol/envelope-seal';
import { exchangePublicKey, generateMessagingKeys } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { messagingKeys } from '../keys.ts';
import { SqliteAgbotStore } from '../store/sqlite-store.ts';
import { testRoundContext } from '../test-support/round-context.ts';
import { sampleAgreement } from '../test-support/store-contract.ts';
import type { RoundContext } from './context.ts';
import { readMailbox } from './mailbox.ts';
import type { AgbotMessage } from './wire.ts';

const NOW = Date.parse('2031-01-01T00:00:00.000Z');
const nodeKeys = generateMessagingKeys();
const nodePubKey = exchangePublicKey(nodeKeys.publicKey);
const NODE_CANCELLED = 105;
/** Agreement ids as the protocol has them (64 hex characters), named for the test. */
const ID = { a1: '1'.repeat(64), a2: '2'.repeat(64), a3: '3'.repeat(64) };

let dir: string;
let sqlite: SqliteAgbotStore;
/** What the round asked of its store, by method. */
let asked: { getAgreements: string[][]; getAgreement: string[]; updateLiveAgreements: string[][] };
/** What the round did at the Exchange, in order. */
let did: string[];
let inbox: AgbotMessage[];
let ctx: RoundContext;

/** The store, with the batch methods' calls recorded (and `beforeUpdate` run before each batch). */
function recordingStore(beforeUpdate: () => Promise<void> = async () => undefined): AgbotStore {
  return new Proxy(sqlite, {
    get(target, name, receiver) {
      const method = Reflect.get(target, name, receiver);
      if (typeof method !== 'function') return method;
      if (name === 'getAgreements')
        return (ids: string[]) => {
          asked.getAgreements.push([...ids].sort());
          return target.getAgreements(ids);
        };
      if (name === 'getAgreement')
        return (id: string) => {
          asked.getAgreement.push(id);
          return target.getAgreement(id);
        };
      if (name === 'updateLiveAgreements')
        return async (list: AgbotAgreement[]) => {
          asked.updateLiveAgreements.push(list.map((a) => a.agreementId).sort());
          await beforeUpdate();
          return target.updateLiveAgreements(list);
        };
      return method.bind(target);
    },
  }) as AgbotStore;
}

async function roundContext(store: AgbotStore): Promise<RoundContext> {
  const exchange = {
    messages: async () => ({ messages: [...inbox] }),
    deleteMessage: async (msgId: number) => {
      did.push(`delete msg ${msgId}`);
      inbox = inbox.filter((m) => m.msgId !== msgId);
    },
    putAgreement: async (id: string, body: { state: string }) => {
      did.push(`row ${id} ${body.state}`);
    },
    deleteAgreement: async (id: string) => {
      did.push(`row ${id} deleted`);
    },
    sendToNode: async (org: string, node: string) => {
      did.push(`message to ${org}/${node}`);
    },
  } as unknown as RoundContext['exchange'];
  return testRoundContext({ store, exchange, keys: await messagingKeys(sqlite), now: () => NOW });
}

/** Agreement `id` with node `node`, proposed and waiting for its reply. */
const proposed = (id: string, node: string): AgbotAgreement => ({
  ...sampleAgreement,
  agreementId: id,
  nodeId: node,
  createdAt: NOW - 1000,
  updatedAt: NOW - 1000,
  details: { protocolTimeoutS: 3600, secrets: [], proposedAt: NOW - 1000 },
});

/** A message from node `acme/<node>` sealed for this agbot. */
const from = (msgId: number, node: string, message: ProtocolMessage): AgbotMessage => ({
  msgId,
  nodeId: `acme/${node}`,
  nodePubKey,
  message: seal(serializeMessage(message), nodeKeys.privateKey, ctx.keys.publicKey),
  timeSent: new Date(NOW).toISOString(),
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agbot-waves-'));
  sqlite = SqliteAgbotStore.open(dir);
  asked = { getAgreements: [], getAgreement: [], updateLiveAgreements: [] };
  did = [];
  inbox = [];
  for (const [id, node] of [
    [ID.a1, 'n1'],
    [ID.a2, 'n2'],
    [ID.a3, 'n3'],
  ] as const)
    await sqlite.saveAgreement(proposed(id, node));
});
afterEach(async () => {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a page of the mailbox, in waves', () => {
  it("reads the page's agreements at once, saves a wave's finalizations at once, and shows a sender's next message what its first did", async () => {
    ctx = await roundContext(recordingStore());
    inbox = [
      from(1, 'n1', buildReply(ID.a1, true, 'n1')),
      from(2, 'n2', buildReply(ID.a2, true, 'n2')),
      from(3, 'n1', buildCancel(ID.a1, NODE_CANCELLED)),
      from(4, 'n3', buildReply(ID.a3, true, 'n3')),
    ];
    expect(await readMailbox(ctx)).toBe(4);
    expect(inbox).toEqual([]);
    expect(asked).toEqual({
      getAgreements: [[ID.a1, ID.a2, ID.a3]],
      // The cancel of a1 comes in the second wave and reads a1 again: finalized by the first.
      getAgreement: [ID.a1],
      updateLiveAgreements: [[ID.a1, ID.a2, ID.a3]],
    });
    const a2 = await sqlite.getAgreement(ID.a2);
    expect(a2?.state).toBe(AGBOT_STATES.finalized);
    expect(a2?.details?.repliedAt).toBe(NOW);
    expect((await sqlite.getAgreement(ID.a3))?.state).toBe(AGBOT_STATES.finalized);
    const a1 = await sqlite.getAgreement(ID.a1);
    expect(a1).toMatchObject({
      archived: true,
      terminatedReason: NODE_CANCELLED,
      state: AGBOT_STATES.finalized,
    });
    // Each replyack before the finalizations' save, each row after it, each message deleted after its row.
    const firstWave = did.slice(0, did.indexOf(`row ${ID.a1} deleted`));
    expect(firstWave.filter((d) => d.startsWith('message to')).sort()).toEqual([
      'message to acme/n1',
      'message to acme/n2',
      'message to acme/n3',
    ]);
    for (const id of ['a1', 'a2', 'a3'] as const)
      expect(firstWave.indexOf(`row ${ID[id]} ${AGBOT_STATES.finalized}`)).toBeGreaterThan(
        firstWave.lastIndexOf('message to acme/n3'),
      );
    expect(firstWave.indexOf('delete msg 2')).toBeGreaterThan(
      firstWave.indexOf(`row ${ID.a2} ${AGBOT_STATES.finalized}`),
    );
    expect(did.slice(did.indexOf(`row ${ID.a1} deleted`))).toEqual([
      `row ${ID.a1} deleted`,
      'message to acme/n1',
      'delete msg 3',
    ]);
  });

  it('writes no finalized row for an agreement archived before its wave was saved, and still deletes its reply', async () => {
    ctx = await roundContext(
      recordingStore(async () => {
        // An overlapping round cancels a2 between the replyacks and the save.
        if (!(await sqlite.getAgreement(ID.a2))?.archived)
          await sqlite.saveAgreement({ ...proposed(ID.a2, 'n2'), archived: true, terminatedReason: 202 });
      }),
    );
    inbox = [from(1, 'n1', buildReply(ID.a1, true, 'n1')), from(2, 'n2', buildReply(ID.a2, true, 'n2'))];
    expect(await readMailbox(ctx)).toBe(2);
    expect(inbox).toEqual([]);
    expect(did).toContain(`row ${ID.a1} ${AGBOT_STATES.finalized}`);
    expect(did).not.toContain(`row ${ID.a2} ${AGBOT_STATES.finalized}`);
    expect(await sqlite.getAgreement(ID.a2)).toMatchObject({ archived: true, terminatedReason: 202 });
    expect((await sqlite.getAgreement(ID.a1))?.state).toBe(AGBOT_STATES.finalized);
  });
});
