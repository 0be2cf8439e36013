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
import type { Mailbox, MailboxState, MessageRef, SenderShare } from '#tables/mailbox/mailbox';
import { loadPostContext, type PostContext } from '#tables/mailbox/post';
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

interface SenderTarget {
  box: Mailbox;
  state: MailboxState;
  share: SenderShare;
  deleting: PostContext['deleting'];
  nodePubKey: string;
}

/**
 * Posting to the mailbox: a node of an org the agbot may serve (an agbot of the node's own org, or
 * a multi-tenant agbot of org IBM; issue 23, upstream lets any node). Admins and root hold
 * upstream's SEND_MSG_TO_AGBOT too but are not nodes, so they get 403 (upstream: a misleading
 * 400). The sender's public key goes with the message, so a node must have registered one. The
 * agbot, the node, the mailbox state and the node's share of it come from one read.
 */
export async function authorizeSender(caller: Caller, path: AgbotPath): Promise<SenderTarget> {
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
  return { box, state, share, deleting, nodePubKey };
}
