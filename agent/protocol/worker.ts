/**
 * One round of the AgreementProtocol worker. With a configured node: publish the messaging key
 * (once per registration and key), heartbeat through the change feed (`POST /orgs/{org}/changes`,
 * the cursor kept in the store), read the mailbox when the feed shows a `nodemsgs` change for
 * this node (or every fallback interval), cancel the agreements the node policy no longer
 * matches (101), then govern the agreements. Cleanup of ended
 * agreements runs in any state, so an unregistration leaves nothing on the engine.
 */
import { exchangePublicKey } from '#lib/protocol/keys';
import type { Credentials } from '../exchange/client.ts';
import { credentials, loadNode, type NodeRecord } from '../node/record.ts';
import { postChanges } from './exchange-calls.ts';
import { cleanUp, governAgreements } from './governance.ts';
import { readMailbox } from './messages.ts';
import { cancelIncompatible } from './policy-check.ts';
import type { Protocol } from './protocol.ts';

const PUBLISHED = 'protocol.publishedKey';
const CURSOR = 'protocol.changes';

interface Cursor {
  node: string;
  changeId: number;
}

export interface WorkerClock {
  lastMailboxRead: number;
  lastContainerCheck: number;
}

export async function protocolRound(p: Protocol, clock: WorkerClock): Promise<void> {
  const node = loadNode(p.ctx.store);
  if (node?.configstate.state === 'configured') {
    const creds = credentials(node);
    await publishKey(p, node, creds);
    const now = p.ctx.now();
    const mail = await changesSayMail(p, node, creds);
    if (mail || now - clock.lastMailboxRead >= p.timings.messagesFallbackMs) {
      clock.lastMailboxRead = now;
      await readMailbox(p, node, creds);
    }
    const checkContainers = now - clock.lastContainerCheck >= p.timings.containerCheckMs;
    if (checkContainers) clock.lastContainerCheck = now;
    cancelIncompatible(p, node);
    await governAgreements(p, node, creds, checkContainers);
  }
  await cleanUp(p);
}

/** The node's `publicKey` in the Exchange (anax: PATCH when the node becomes configured). */
async function publishKey(p: Protocol, node: NodeRecord, creds: Credentials): Promise<void> {
  const key = exchangePublicKey((await p.keys()).publicKey);
  // Once per configuration: an unregistration clears it in the Exchange.
  const marker = `${node.organization}/${node.id}@${node.configstate.last_update_time}:${key}`;
  if (p.ctx.store.get<string>(PUBLISHED) === marker) return;
  await p.ctx.exchange.patchNode(creds, 'publicKey', key);
  p.ctx.store.set(PUBLISHED, marker);
}

/** Heartbeat and feed: whether a `nodemsgs` change for this node came since the last round. */
async function changesSayMail(p: Protocol, node: NodeRecord, creds: Credentials): Promise<boolean> {
  const who = `${node.organization}/${node.id}`;
  const stored = p.ctx.store.get<Cursor>(CURSOR);
  const from = stored?.node === who ? stored.changeId + 1 : 0;
  const answer = await postChanges(p.ctx, creds, from);
  p.ctx.store.set(CURSOR, { node: who, changeId: Math.max(answer.mostRecentChangeId, from - 1) });
  return answer.changes.some(
    (c) => c.resource === 'nodemsgs' && c.orgId === node.organization && c.id === node.id,
  );
}
