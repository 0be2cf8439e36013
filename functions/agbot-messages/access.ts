import {
  type AgbotPath,
  agbotNotFound,
  authorizeAgbot,
  authorizeAgbotReader,
} from '#functions/agbots/access';
import type { Caller } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import type { AgbotRecord } from '#tables/agbot-records';
import { getNode } from '#tables/node-records';

/** Reads of the mailbox: the contract's "a user or the agbot" (nodes and other agbots get 403). */
export async function authorizeMailboxReader(caller: Caller, path: AgbotPath): Promise<AgbotRecord> {
  const agbot = await authorizeAgbotReader(caller, path);
  if (!agbot) throw agbotNotFound(path);
  return agbot;
}

/**
 * Posting to the mailbox: any node, of any org (upstream's SEND_MSG_TO_AGBOT). Admins and root
 * hold that permission too but are not nodes, so they get 403 (upstream: a misleading 400). The
 * sender's public key goes with the message, so a node must have registered one. Resolves the
 * sender's public key; the agbot and the node are read at once.
 */
export async function authorizeSender(caller: Caller, path: AgbotPath): Promise<{ nodePubKey: string }> {
  const [agbot, node] = await Promise.all([
    authorizeAgbot(caller, path, 'SEND_MSG_TO_AGBOT'),
    caller.kind === 'node' ? getNode(caller.org, caller.id) : undefined,
  ]);
  if (caller.kind !== 'node') {
    throw accessDenied(
      `Access denied: only nodes may send messages to an agbot; '${caller.fullId}' is not a node`,
    );
  }
  if (!agbot) throw agbotNotFound(path);
  if (!node?.publicKey) {
    throw badInput(
      `invalid input: node '${caller.fullId}' has no publicKey; it must set one before sending messages`,
    );
  }
  return { nodePubKey: node.publicKey };
}
