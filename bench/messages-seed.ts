import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { PutItemCommand } from 'dynamodb-toolbox';
import { handler as putAgbot } from '#functions/agbots/put-agbot';
import { handler as putNode } from '#functions/nodes/put-node';
import { hashSecret } from '#lib/auth/secrets';
import { AgbotEntity } from '#tables/agbot/entity';
import { agbotMailbox } from '#tables/agbot/message-records';
import { documentClient, tableName } from '#tables/client';
import { identityKeys } from '#tables/identity/keys';
import { ownedEntry } from '#tables/identity/records';
import { transactWrite } from '#tables/kernel/transact';
import { agbotKeys } from '#tables/keys/agbot';
import { nodeKeys } from '#tables/keys/node';
import { type Mailbox, messageItem } from '#tables/mailbox/mailbox';
import { orgCounterUpdate, userCounterUpdate } from '#tables/org/stats';
import { createUser } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import type { Credentials } from './in-process.ts';
import { ORG } from './seed.ts';

/**
 * The mailbox benchmark's data, in org `bench`: alice owns `agbot-0`…`agbot-9` (agbot-0 holds the
 * 100 waiting messages GET reads, agbot-1 receives the POSTs) and `sender-0`…`sender-9`, nodes
 * with a public key; bob owns the bulk agbots that grow the table to 10,000.
 */
export const BASE_AGBOTS = 10;
export const WAITING = 100;
export const agbotId = (i: number) => `agbot-${i}`;
export const senderId = (i: number) => `sender-${i}`;
const BULK_OWNER = 'bob';
const DAY_MS = 24 * 3600 * 1000;

export interface MailboxCast {
  /** agbot-0, reading its own mailbox. */
  reader: Credentials;
  /** sender-0…9. */
  senders: Credentials[];
}

async function expectStatus(what: string, result: Promise<{ status: number; text: string }>, status: number) {
  const { status: got, text } = await result;
  if (got !== status) throw new Error(`${what} → ${got}: ${text}`);
}

/** Agbots and senders created through the handlers, as clients would; then 100 messages for agbot-0. */
export async function seedMailboxes(alice: Credentials): Promise<MailboxCast> {
  const agbots: Credentials[] = [];
  for (let i = 0; i < BASE_AGBOTS; i++) {
    const token = `agbot-token-${i}`;
    const body = { token, name: agbotId(i), publicKey: `agbot-key-${i}` };
    await expectStatus(
      `PUT agbot ${i}`,
      invoke(putAgbot, { auth: alice, path: { organization: ORG, agreementbot: agbotId(i) }, body }),
      200,
    );
    agbots.push({ user: `${ORG}/${agbotId(i)}`, secret: token });
  }
  const senders: Credentials[] = [];
  for (let i = 0; i < BASE_AGBOTS; i++) {
    const token = `sender-token-${i}`;
    const body = { name: senderId(i), token, pattern: '', publicKey: `sender-key-${i}`, arch: 'amd64' };
    await expectStatus(
      `PUT sender ${i}`,
      invoke(putNode, { auth: alice, path: { organization: ORG, node: senderId(i) }, body }),
      201,
    );
    senders.push({ user: `${ORG}/${senderId(i)}`, secret: token });
  }
  await writeMessages(agbotId(0), WAITING, DAY_MS);
  return { reader: agbots[0] as Credentials, senders };
}

/** BatchWriteItem, 25 items per call, several calls at once, retrying unprocessed items. */
async function batchPut(items: Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = (batches[next++] ?? []).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await documentClient.send(
          new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }),
        );
        pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** `count` live messages (ids 1…count) in `agbot`'s mailbox, counted in the org's STATS. */
export async function writeMessages(agbot: string, count: number, liveMs: number): Promise<void> {
  await fillMailbox(agbotMailbox(ORG, agbot), count, liveMs, (msgId) => ({
    senderId: `${ORG}/${senderId(msgId % BASE_AGBOTS)}`,
    senderPubKey: `sender-key-${msgId % BASE_AGBOTS}`,
  }));
}

/** `count` live messages (ids 1…count) in `box` with its state item, counted in the org's STATS. */
export async function fillMailbox(
  box: Mailbox,
  count: number,
  liveMs: number,
  sender: (msgId: number) => { senderId: string; senderPubKey: string },
): Promise<void> {
  const sent = new Date();
  const expires = new Date(sent.getTime() + liveMs);
  const items: Record<string, unknown>[] = [];
  for (let msgId = 1; msgId <= count; msgId++) {
    items.push(
      messageItem(box, {
        msgId,
        ...sender(msgId),
        message: `message ${msgId}: ${'x'.repeat(200)}`,
        timeSent: sent.toISOString(),
        timeExpires: expires.toISOString(),
        ttl: Math.floor(expires.getTime() / 1000) + 86_400,
        bytes: 212 + String(msgId).length,
      }),
    );
  }
  const state =
    box.kind === 'agbot' ? agbotKeys.messageSeq(box.org, box.id) : nodeKeys.messageSeq(box.org, box.id);
  items.push({ ...state, seq: count, storedMsgs: count });
  await batchPut(items);
  const counter = box.kind === 'agbot' ? 'agbotMsgs' : 'nodeMsgs';
  await transactWrite([orgCounterUpdate(box.org, { deltas: { [counter]: count } })]);
}

/** An agbot of alice's made with the handler (for the DELETE benchmark). */
export async function createAgbotFor(alice: Credentials, id: string): Promise<void> {
  const body = { token: `${id}-token`, name: id, publicKey: 'key' };
  await expectStatus(
    `PUT agbot ${id}`,
    invoke(putAgbot, { auth: alice, path: { organization: ORG, agreementbot: id }, body }),
    200,
  );
}

/** Adds bob's agbots with BatchWriteItem until the table holds `total` agbots. */
export async function growAgbots(total: number): Promise<void> {
  await createUser(ORG, BULK_OWNER, { password: 'bob-bench-pw' });
  const tokenHash = await hashSecret('bulk-agbot-token');
  const lastHeartbeat = `${new Date().toISOString()}[UTC]`;
  const items: Record<string, unknown>[] = [];
  const owner = `${ORG}/${BULK_OWNER}`;
  for (let i = BASE_AGBOTS; i < total; i++) {
    const { Item } = AgbotEntity.build(PutItemCommand)
      .item({
        org: ORG,
        id: agbotId(i),
        owner,
        name: agbotId(i),
        tokenHash,
        lastHeartbeat,
      })
      .params();
    if (Item)
      items.push(Item, {
        ...identityKeys.principal(ORG, agbotId(i)),
        agbot: ownedEntry({ tokenHash, owner }),
      });
  }
  await batchPut(items);
  // Keep the counters true to the table, as the handlers would have.
  const deltas = { agbots: total - BASE_AGBOTS };
  await transactWrite([orgCounterUpdate(ORG, { deltas }), userCounterUpdate(ORG, BULK_OWNER, { deltas })]);
}
