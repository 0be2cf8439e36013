/**
 * The node's mailbox (docs/protocol.md#messages to #envelope): each message is opened with the node's key (the
 * signer must be the agbot the Exchange names), parsed, handled by type, then deleted. A message
 * that cannot be opened or parsed is deleted without reply, as upstream does. A failure to reach
 * the Exchange leaves the message for the next round.
 */
import { buildDataReceivedAck, buildUpdateReply, buildVerifyReply } from '#lib/protocol/build-message';
import { open } from '#lib/protocol/envelope-open';
import { readMailboxPages } from '#lib/protocol/mailbox-pages';
import { MESSAGE_TYPES, UPDATE_TYPES } from '#lib/protocol/message-types';
import type { ProtocolMessage, SecretUpdate } from '#lib/protocol/messages';
import { parseMessage } from '#lib/protocol/parse-message';
import { REASON } from '#lib/protocol/reason-codes';
import { decodeSecretValue } from '#lib/protocol/secret-binding';
import { findFor } from '#lib/protocol/service-match';
import { type Credentials, ExchangeUnavailableError } from '../exchange/client.ts';
import type { NodeRecord } from '../node/record.ts';
import type { SecretValue } from '../workloads/secret-files.ts';
import { deleteMessage, listMessages, type NodeMessage } from './exchange-calls.ts';
import { acceptAndFinalize } from './finalize.ts';
import { handleProposal } from './proposal.ts';
import type { Protocol } from './protocol.ts';
import {
  agreementSource,
  findAgreement,
  nowSeconds,
  type ProtocolAgreement,
  recordSecrets,
} from './records.ts';
import { sendMessage } from './send.ts';
import { startTermination } from './terminate.ts';

/**
 * Reads and handles the node's mailbox, oldest first, a page at a time (`readMailboxPages`): each
 * message is handled and deleted before the next page is read.
 */
export async function readMailbox(p: Protocol, node: NodeRecord, creds: Credentials): Promise<number> {
  return readMailboxPages(
    (page) => listMessages(p.ctx, creds, page),
    async (messages) => {
      for (const message of messages) {
        try {
          await handleOne(p, node, creds, message);
        } catch (error) {
          if (error instanceof ExchangeUnavailableError) throw error;
          p.ctx.log.error('node message handling failed', {
            msgId: message.msgId,
            reason: (error as Error).message,
          });
        }
        await deleteMessage(p.ctx, creds, message.msgId);
      }
    },
  );
}

async function handleOne(
  p: Protocol,
  node: NodeRecord,
  creds: Credentials,
  message: NodeMessage,
): Promise<void> {
  const keys = await p.keys();
  let parsed: ProtocolMessage;
  try {
    parsed = parseMessage(open(message.message, keys.privateKey, message.agbotPubKey).message);
  } catch (error) {
    p.ctx.log.warn('node message dropped', {
      msgId: message.msgId,
      from: message.agbotId,
      reason: (error as Error).message,
    });
    return;
  }
  if (parsed.type === MESSAGE_TYPES.proposal) return handleProposal(p, node, creds, message, parsed);
  const agreement = findAgreement(p.ctx.store, parsed.agreementId);
  const active =
    agreement && !agreement.archived && agreement.agreement_terminated_time === 0 ? agreement : undefined;
  // Only the agbot of the agreement may act on it.
  if (agreement?.agbot_id && agreement.agbot_id !== message.agbotId) {
    p.ctx.log.warn('node message from another agbot dropped', {
      msgId: message.msgId,
      from: message.agbotId,
    });
    return;
  }
  const reply = (m: ProtocolMessage) => sendMessage(p, creds, message.agbotId, message.agbotPubKey, m);
  switch (parsed.type) {
    case MESSAGE_TYPES.replyAck:
      if (!active) return;
      if (!parsed.decision) {
        p.ctx.events.add(
          'info',
          'cancel_agreement_per_agbot_request',
          `Agreement ${active.current_agreement_id} cancelled: the agbot no longer holds it.`,
          'agreement',
          agreementSource(active),
        );
        startTermination(p, active.current_agreement_id, REASON.agbotRequested, { byAgbot: true });
        return;
      }
      return acceptAndFinalize(p, node, creds, active);
    case MESSAGE_TYPES.cancel:
      if (!active) return;
      p.ctx.events.add(
        'info',
        'received_cancel_agreement_message',
        `Node received Cancel message for ${active.workload_to_run.org}/${active.workload_to_run.url} from agbot ${message.agbotId}.`,
        'agreement',
        agreementSource(active),
      );
      startTermination(p, active.current_agreement_id, parsed.reason, { byAgbot: true });
      return;
    case MESSAGE_TYPES.verify:
      return reply(buildVerifyReply(parsed.agreementId, active !== undefined));
    case MESSAGE_TYPES.verifyReply:
      if (active && !parsed.exists) startTermination(p, active.current_agreement_id, REASON.agbotRequested);
      return;
    case MESSAGE_TYPES.dataReceived:
      return reply(buildDataReceivedAck(parsed.agreementId));
    case MESSAGE_TYPES.update: {
      if (!active) return reply(buildUpdateReply(parsed.agreementId, parsed.updateType, false));
      const accepted =
        parsed.updateType === UPDATE_TYPES.secret
          ? await updateSecrets(p, active, parsed as SecretUpdate)
          : false;
      return reply(buildUpdateReply(parsed.agreementId, parsed.updateType, accepted));
    }
    default:
      // Replies and update replies are the agbot's to read: nothing to do on a node.
      return;
  }
}

/**
 * `basicagreementupdatesecret` (docs/protocol.md#secrets-in-agreements): the changed secrets of this agreement's service
 * are rewritten in place; the containers keep running. Accepted unless a value cannot be read.
 */
async function updateSecrets(
  p: Protocol,
  agreement: ProtocolAgreement,
  update: SecretUpdate,
): Promise<boolean> {
  const service = agreement.workload_to_run;
  const binding = findFor(update.metadata, service, ['', '*']);
  const known = new Set(agreement.secret_names ?? []);
  const values: Record<string, SecretValue> = {};
  try {
    for (const entry of binding?.secrets ?? []) {
      for (const [name, carried] of Object.entries(entry)) {
        if (known.has(name)) values[name] = decodeSecretValue(carried);
      }
    }
    if (Object.keys(values).length === 0) return true;
    await p.runner.updateSecrets(agreement.current_agreement_id, values);
  } catch (error) {
    p.ctx.log.warn('secret update refused', {
      agreement: agreement.current_agreement_id,
      reason: (error as Error).message,
    });
    return false;
  }
  recordSecrets(
    p.ctx.store,
    agreement.current_agreement_id,
    Object.keys(values),
    service,
    nowSeconds(p.ctx.now),
  );
  p.ctx.events.add(
    'info',
    'secret_updated',
    `Secrets ${Object.keys(values).join(', ')} updated for ${service.org}/${service.url}.`,
    'agreement',
    agreementSource(agreement),
  );
  return true;
}
