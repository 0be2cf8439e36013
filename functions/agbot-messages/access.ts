import {
  type AgbotPath,
  agbotNotFound,
  authorizeAgbot,
  authorizeAgbotReader,
} from '#functions/agbots/access';
import { authorize } from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import { agbotMailbox } from '#tables/agbot-message-records';
import type { AgbotRecord } from '#tables/agbot-records';
import type { Mailbox, MailboxState } from '#tables/mailbox';
import { loadPostContext } from '#tables/mailbox-post';

/** Reads of the mailbox: the contract's "a user or the agbot" (nodes and other agbots get 403). */
export async function authorizeMailboxReader(caller: Caller, path: AgbotPath): Promise<AgbotRecord> {
  const agbot = await authorizeAgbotReader(caller, path);
  if (!agbot) throw agbotNotFound(path);
  return agbot;
}

export interface SenderTarget {
  box: Mailbox;
  state: MailboxState;
  nodePubKey: string;
}

/**
 * Posting to the mailbox: any node, of any org (upstream's SEND_MSG_TO_AGBOT). Admins and root
 * hold that permission too but are not nodes, so they get 403 (upstream: a misleading 400). The
 * sender's public key goes with the message, so a node must have registered one. The agbot, the
 * node and the mailbox state come from one read.
 */
export async function authorizeSender(caller: Caller, path: AgbotPath): Promise<SenderTarget> {
  if (caller.kind !== 'node') {
    await authorizeAgbot(caller, path, 'SEND_MSG_TO_AGBOT');
    throw accessDenied(
      `Access denied: only nodes may send messages to an agbot; '${caller.fullId}' is not a node`,
    );
  }
  const box = agbotMailbox(path.organization, path.agreementbot);
  const { owner, sender, state } = await loadPostContext(box, {
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
  return { box, state, nodePubKey };
}
