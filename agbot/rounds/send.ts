import { serializeMessage } from '#lib/protocol/build-message';
import { seal } from '#lib/protocol/envelope-seal';
import { parseExchangePublicKey } from '#lib/protocol/keys';
import type { ProtocolMessage } from '#lib/protocol/messages';
import { agbotMessageTtlS } from '#lib/protocol/timeouts';
import type { RoundContext } from './context.ts';
import { nodeMaxHeartbeatS } from './node-heartbeat.ts';
import { nodeRecord, oneOf } from './wire.ts';

/** Signs `message` with the agbot's key, seals it for the node's published key, posts it to the node's mailbox. */
export async function sendToNode(
  ctx: RoundContext,
  node: { org: string; id: string; publicKey: string; maxHeartbeatS?: number },
  message: ProtocolMessage,
): Promise<void> {
  const sealed = seal(serializeMessage(message), ctx.keys.privateKey, parseExchangePublicKey(node.publicKey));
  await ctx.exchange.sendToNode(node.org, node.id, sealed, agbotMessageTtlS(node.maxHeartbeatS));
}

/** A later message about an agreement: the node's current key is read first (upstream does so); undefined when the node is gone or unkeyed. */
export async function sendAbout(
  ctx: RoundContext,
  agreement: { nodeOrg: string; nodeId: string },
  message: ProtocolMessage,
): Promise<boolean> {
  const node = oneOf(
    await ctx.exchange.node(agreement.nodeOrg, agreement.nodeId),
    'nodes',
    `${agreement.nodeOrg}/${agreement.nodeId}`,
    nodeRecord,
  );
  if (!node?.publicKey) return false;
  await sendToNode(
    ctx,
    {
      org: agreement.nodeOrg,
      id: agreement.nodeId,
      publicKey: node.publicKey,
      maxHeartbeatS: await nodeMaxHeartbeatS(ctx, new Map(), agreement.nodeOrg, node),
    },
    message,
  );
  return true;
}
