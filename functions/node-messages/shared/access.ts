import { authorizeNode, isTheNode, nodeNotFound } from '#functions/nodes/access';
import { authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import { mayExchangeMessages } from '#lib/mailbox';
import { loadDeleteContext } from '#tables/mailbox/cleanup';
import type { Mailbox, MessageRef } from '#tables/mailbox/mailbox';
import { loadPostContext, type PostTarget } from '#tables/mailbox/post';
import { nodeMailbox } from '#tables/node/message-records';
import type { NodeRecord } from '#tables/node/records';
import type { NodeMessagePath, NodeMessagesPath } from './schemas.ts';
import { rememberedSenderKey, rememberSenderKey } from './sender-keys.ts';

/**
 * Reads (READ) and deletes (WRITE) of a node's mailbox: whoever may read or write the node
 * (reads: the node, its owner, org admins, root, agbots of its org; deletes: the node, its owner,
 * org admins, root). Other nodes, other users, hub admins: 403. The node must exist (404).
 *
 * The node reading its own mailbox (every read of the agent's) reads nothing to be authorized: its
 * credentials were checked against its record. A node deleted since then (within the identity
 * cache's time) finds its mailbox gone with it: 404 as for an empty mailbox, instead of 404 "not found".
 */
export async function authorizeNodeMailbox(
  caller: Caller,
  path: NodeMessagesPath,
  access: 'READ' | 'WRITE',
): Promise<NodeRecord | undefined> {
  if (access === 'READ' && isTheNode(caller, path)) return undefined;
  const node = await authorizeNode(caller, path, access);
  if (!node) throw nodeNotFound(path);
  return node;
}

/**
 * Deleting a message: whoever may write the node (the node, its owner, org admins, root). The node
 * deleting its own (the agent, after each message it handled) reads nothing: its credentials were
 * checked against its record, and the delete gives no share back (tables/mailbox/cleanup.ts,
 * `removeOwnMessage`). Anyone else: the node and the message come from one read (the message's
 * sender gets its share back); the node must exist (404).
 */
export async function authorizeNodeMessageDelete(
  caller: Caller,
  path: NodeMessagePath,
): Promise<{ box: Mailbox; message: MessageRef | undefined; byItsNode: boolean }> {
  const box = nodeMailbox(path.organization, path.node);
  if (isTheNode(caller, path)) return { box, message: undefined, byItsNode: true };
  const { owner, message } = await loadDeleteContext(box, path.msgid);
  const target = { type: 'node' as const, org: box.org, id: box.id, exists: owner !== undefined };
  authorize(caller, { ...target, owner: owner?.owner as string | undefined }, 'WRITE');
  if (!owner) throw nodeNotFound(path);
  return { box, message, byItsNode: false };
}

/**
 * Posting to a node's mailbox: an agbot that may serve the node's org (its own org's agbots, and
 * multi-tenant agbots of org IBM; issue 23, upstream lets any agbot). Admins and root hold
 * upstream's SEND_MSG_TO_NODE too but are not agbots, so they get 403 (upstream: a misleading 400).
 * The agbot's public key goes with the message, so it must have one.
 *
 * An agbot posts to thousands of mailboxes with the same key, so this instance remembers it
 * (sender-keys.ts) and the post reads nothing: its transaction checks that the node exists, that
 * the agbot still holds that key and is not being deleted, and the limits. Otherwise (the key not
 * remembered, or the transaction found it changed: `readNodeSender`), the node, the agbot, the
 * mailbox state and the agbot's share of it come from one read.
 */
export async function authorizeNodeSender(caller: Caller, path: NodeMessagesPath): Promise<PostTarget> {
  const remembered = caller.kind === 'agbot' ? rememberedSenderKey(caller.fullId) : undefined;
  if (remembered === undefined) return readNodeSender(caller, path);
  await mayPostToNode(caller, path);
  return { box: nodeMailbox(path.organization, path.node), senderPubKey: remembered, keyUnread: true };
}

/** Throws 403 unless `caller` is an agbot that may serve the node's org. */
async function mayPostToNode(caller: Caller, path: NodeMessagesPath): Promise<void> {
  if (caller.kind !== 'agbot') {
    await authorizeNode(caller, path, 'SEND_MSG_TO_NODE');
    throw accessDenied(
      `Access denied: only agbots may send messages to a node; '${caller.fullId}' is not an agbot`,
    );
  }
  if (!mayExchangeMessages(caller.org, path.organization)) {
    throw accessDenied(
      `Access denied: agbot '${caller.fullId}' may not send messages to nodes of org '${path.organization}'; only its own org's or, from org IBM, any org's`,
    );
  }
}

/** The slow path of authorizeNodeSender: one read of the node, the agbot, the state and the share. */
export async function readNodeSender(caller: Caller, path: NodeMessagesPath): Promise<PostTarget> {
  await mayPostToNode(caller, path);
  const box = nodeMailbox(path.organization, path.node);
  const { owner, sender, state, share, deleting } = await loadPostContext(box, {
    kind: 'agbot',
    org: caller.org,
    id: caller.id,
  });
  const target = { type: 'node' as const, org: box.org, id: box.id, exists: owner !== undefined };
  authorize(caller, { ...target, owner: owner?.owner as string | undefined }, 'SEND_MSG_TO_NODE');
  if (!owner) throw nodeNotFound(path);
  const agbotPubKey = String(sender?.publicKey ?? '');
  if (!agbotPubKey) {
    throw badInput(
      `invalid input: agbot '${caller.fullId}' has no publicKey; it must set one before sending messages`,
    );
  }
  rememberSenderKey(caller.fullId, agbotPubKey);
  return { box, state, share, deleting, senderPubKey: agbotPubKey, keyUnread: false };
}
