import {
  type AgbotPath,
  agbotNotFound,
  authorizeAgbot,
  authorizeAgbotReader,
  isTheAgbot,
} from '#functions/agbots/shared/access';
import { authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import { mayExchangeMessages } from '#lib/mailbox';
import { agbotMailbox } from '#tables/agbot/message-records';
import type { AgbotRecord } from '#tables/agbot/records';
import { loadDeleteContext } from '#tables/mailbox/cleanup';
import type { Mailbox, MessageRef } from '#tables/mailbox/mailbox';
import { loadPostContext, type PostTarget } from '#tables/mailbox/post';
import type { MessagePath } from './schemas.ts';

/**
 * Reads of the mailbox: users and the agbot itself (docs/compatibility.md#agbot-messages; nodes and
 * other agbots get 403). The agbot reading its own reads nothing to be authorized (as a node's
 * mailbox: node-messages/shared/access.ts).
 */
export async function authorizeMailboxReader(
  caller: Caller,
  path: AgbotPath,
): Promise<AgbotRecord | undefined> {
  if (isTheAgbot(caller, path)) return undefined;
  const agbot = await authorizeAgbotReader(caller, path);
  if (!agbot) throw agbotNotFound(path);
  return agbot;
}

/**
 * Deleting a message: whoever may write the agbot (the agbot, its owner, admins, root). The agbot
 * and the message come from one read (the message's sender gets its share back); the agbot must exist (404).
 */
export async function authorizeMessageDelete(
  caller: Caller,
  path: MessagePath,
): Promise<{ box: Mailbox; message: MessageRef | undefined }> {
  const box = agbotMailbox(path.organization, path.agreementbot);
  const { owner, message } = await loadDeleteContext(box, path.message);
  const target = { type: 'agbot' as const, org: box.org, id: box.id, exists: owner !== undefined };
  authorize(caller, { ...target, owner: owner?.owner as string | undefined }, 'WRITE');
  if (!owner) throw agbotNotFound(path);
  return { box, message };
}

/**
 * Posting to the mailbox: a node of an org the agbot may serve (an agbot of the node's own org, or
 * a multi-tenant agbot of org IBM; issue 23, upstream lets any node). Admins and root hold
 * upstream's SEND_MSG_TO_AGBOT too but are not nodes, so they get 403 (upstream: a misleading
 * 400). The sender's public key goes with the message, so a node must have registered one.
 *
 * Each node replies once per agreement, so no memo of keys would hit: the key comes from the
 * node's principal item, which authentication read anyway (tables/identity/records.ts
 * `nodeEntry`), and the post reads nothing. Its transaction checks that the agbot exists and is
 * not being deleted, that the node still holds that key, and the limits. A node's permission to
 * send never depends on the agbot record (lib/auth/access.ts: SEND_MSG_TO_AGBOT for any node
 * past the org rule), so nothing is lost by not reading it. Without a key there (a principal item
 * written before it, or a node without a key) or when the transaction found it changed:
 * `readSender`.
 */
export async function authorizeSender(caller: Caller, path: AgbotPath): Promise<PostTarget> {
  await mayPostToAgbot(caller, path);
  if (caller.kind !== 'node' || !caller.publicKey) return readSender(caller, path);
  const box = agbotMailbox(path.organization, path.agreementbot);
  // The agbot's existence is the transaction's owner check (404 when it fails).
  authorize(caller, { type: 'agbot', org: box.org, id: box.id, exists: true }, 'SEND_MSG_TO_AGBOT');
  return { box, senderPubKey: caller.publicKey, keyUnread: true };
}

/** Throws 403 unless `caller` is a node of an org the agbot may serve. */
async function mayPostToAgbot(caller: Caller, path: AgbotPath): Promise<void> {
  if (caller.kind !== 'node') {
    await authorizeAgbot(caller, path, 'SEND_MSG_TO_AGBOT');
    throw accessDenied(
      `Access denied: only nodes may send messages to an agbot; '${caller.fullId}' is not a node`,
    );
  }
  if (!mayExchangeMessages(path.organization, caller.org)) {
    throw accessDenied(
      `Access denied: node '${caller.fullId}' may not send messages to agbots of org '${path.organization}'; only to its own org's or org IBM's`,
    );
  }
}

/**
 * The slow path of authorizeSender: the agbot, the node (its key), the mailbox state and the node's
 * share of it from one read; 404 for a missing agbot, 400 for a node without a key.
 */
export async function readSender(caller: Caller, path: AgbotPath): Promise<PostTarget> {
  await mayPostToAgbot(caller, path);
  const box = agbotMailbox(path.organization, path.agreementbot);
  const { owner, sender, state, share, deleting } = await loadPostContext(box, {
    kind: 'node',
    org: caller.org,
    id: caller.id,
  });
  const target = { type: 'agbot' as const, org: box.org, id: box.id, exists: owner !== undefined };
  authorize(caller, { ...target, owner: owner?.owner as string | undefined }, 'SEND_MSG_TO_AGBOT');
  if (!owner) throw agbotNotFound(path);
  const nodePubKey = String(sender?.publicKey ?? '');
  if (!nodePubKey) {
    throw badInput(
      `invalid input: node '${caller.fullId}' has no publicKey; it must set one before sending messages`,
    );
  }
  return { box, state, share, deleting, senderPubKey: nodePubKey, keyUnread: false };
}
