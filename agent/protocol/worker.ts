/**
 * One round of the AgreementProtocol worker. With a configured node: publish the messaging key
 * (once per registration and key), read the mailbox when the Exchange poll's feed showed a
 * `nodemsgs` change for this node (agent/sync/poll.ts; it also asks at start and after an outage)
 * or every fallback interval, cancel the agreements the node policy no longer
 * matches (101), then govern the agreements. Cleanup of ended
 * agreements runs in any state, so an unregistration leaves nothing on the engine.
 */
import { exchangePublicKey } from '#lib/protocol/keys';
import type { Credentials } from '../exchange/client.ts';
import { credentials, loadNode, type NodeRecord } from '../node/record.ts';
import { cleanUp, governAgreements } from './governance.ts';
import { readMailbox } from './messages.ts';
import { cancelIncompatible } from './policy-check.ts';
import type { Protocol } from './protocol.ts';

const PUBLISHED = 'protocol.publishedKey';
/** The worker's name (GET /status/workers). */
export const PROTOCOL_WORKER = 'AgreementProtocol';
/** Counted in the worker registry after each container check (tests wait on it). */
export const CONTAINER_CHECK = 'AgreementProtocol container check';

interface WorkerClock {
  lastMailboxRead: number;
  lastContainerCheck: number;
  /** Set by the Exchange poll when its feed named the node's mailbox. */
  mailWaiting: boolean;
}

export async function protocolRound(p: Protocol, clock: WorkerClock): Promise<void> {
  const node = loadNode(p.ctx.store);
  if (node?.configstate.state === 'configured') {
    const creds = credentials(node);
    await publishKey(p, node, creds);
    const now = p.ctx.now();
    if (clock.mailWaiting || now - clock.lastMailboxRead >= p.timings.messagesFallbackMs) {
      clock.mailWaiting = false;
      clock.lastMailboxRead = now;
      await readMailbox(p, node, creds);
    }
    const checkContainers = now - clock.lastContainerCheck >= p.timings.containerCheckMs;
    if (checkContainers) clock.lastContainerCheck = now;
    cancelIncompatible(p, node);
    await governAgreements(p, node, creds, checkContainers);
    if (checkContainers) p.ctx.workers.roundDone(CONTAINER_CHECK);
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
