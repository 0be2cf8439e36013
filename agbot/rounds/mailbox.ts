/**
 * The agbot's mailbox (docs/protocol.md#messages, #mailboxes; issue 13 "Bad input and safety"): each message is
 * opened with the agbot's key, its signer checked against the key the Exchange recorded for the
 * sending node, parsed, and handled by type. A message that does not open or parse, or of an
 * unknown type, or from a node other than the agreement's, is deleted with a warning and changes
 * nothing. A message about an agreement id this agbot does not know stays for a grace period
 * (`unknownMessageGraceMs` after it was sent: a reply racing its agreement's record, or another
 * instance's), then is deleted (issue 23: kept forever, such messages filled the mailbox). The
 * mailbox is read a page at a time (`readMailboxPages`), so messages left for now do not hide the
 * ones behind them.
 */

import type { AgbotAgreement } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { buildCancel, buildReplyAck, buildVerifyReply } from '#lib/protocol/build-message';
import { open } from '#lib/protocol/envelope-open';
import { MAILBOX_PAGE_SIZE, readMailboxPages } from '#lib/protocol/mailbox-pages';
import { MESSAGE_TYPES, UPDATE_TYPES } from '#lib/protocol/message-types';
import type { ProtocolMessage, Reply } from '#lib/protocol/messages';
import { parseMessage } from '#lib/protocol/parse-message';
import { REASON } from '#lib/protocol/reason-codes';
import { cancelAgreement } from './cancel.ts';
import { mapLimit, outOfTime, type RoundContext, splitId } from './context.ts';
import type { FeedSummary } from './feed.ts';
import { agreementRow } from './propose.ts';
import { SEARCH_MAX_PAGES, PAGE_SIZE as SEARCH_PAGE_SIZE } from './search.ts';
import { sendToNode } from './send.ts';
import { type AgbotMessage, messagesAnswer } from './wire.ts';

/**
 * Whether this round reads the mailbox: the feed showed a new message; or the feed has more than a
 * round reads, so a message may be behind what it read (10,000 nodes registering put several rounds
 * of changes ahead of the replies to the first proposals, which waited unread until they timed
 * out); or the fallback's time came (a change row lost).
 */
export const mailboxDue = (ctx: RoundContext, feed: Pick<FeedSummary, 'mailbox' | 'backlog'>): boolean =>
  feed.mailbox || feed.backlog || ctx.now() - ctx.memory.lastMailboxAt >= ctx.settings.mailboxFallbackMs;

/**
 * Messages a round reads at most: as many as a round's full search proposes to (one reply each).
 * With fewer, a rollout to thousands of nodes proposed faster than it read the replies: at 10,000
 * nodes a round sent 3,000 proposals and read 1,000 replies (bench:scale, docs/benchmarks.md).
 */
const MAILBOX_PAGES_PER_ROUND = Math.ceil((SEARCH_MAX_PAGES * SEARCH_PAGE_SIZE) / MAILBOX_PAGE_SIZE);

/**
 * Reads and handles the mailbox, oldest first, a page at a time, until it is empty, the round's
 * share is read or the round's deadline has come; answers how many messages were handled.
 */
export async function readMailbox(ctx: RoundContext): Promise<number> {
  ctx.memory.lastMailboxAt = ctx.now();
  let handled = 0;
  await readMailboxPages(
    async (page) => {
      // Past the round's deadline (the in-stack agbot's): the rest waits for the next round.
      if (outOfTime(ctx)) return [];
      const answer = messagesAnswer.safeParse(await ctx.exchange.messages(page));
      return answer.success ? answer.data.messages : [];
    },
    async (messages) => {
      handled += await handlePage(ctx, messages);
    },
    { pageSize: MAILBOX_PAGE_SIZE, maxPages: MAILBOX_PAGES_PER_ROUND },
  );
  return handled;
}

/** One page: one sender's messages in order (an agreement has one node); different nodes side by side. */
async function handlePage(ctx: RoundContext, messages: AgbotMessage[]): Promise<number> {
  const bySender = new Map<string, AgbotMessage[]>();
  for (const message of messages)
    bySender.set(message.nodeId, [...(bySender.get(message.nodeId) ?? []), message]);
  let handled = 0;
  await mapLimit([...bySender.values()], ctx.settings.concurrency, async (queue) => {
    for (const message of queue) {
      if (await handleOne(ctx, message)) {
        await ctx.exchange.deleteMessage(message.msgId);
        handled += 1;
      }
    }
  });
  return handled;
}

/** Whether an unusable message has waited out its grace period (one without a readable time has). */
function graceOver(ctx: RoundContext, message: AgbotMessage): boolean {
  const sent = Date.parse(message.timeSent ?? '');
  return Number.isNaN(sent) || ctx.now() - sent >= ctx.settings.unknownMessageGraceMs;
}

/** Handles one message; false = leave it in the mailbox for now (an agreement not known yet). */
async function handleOne(ctx: RoundContext, message: AgbotMessage): Promise<boolean> {
  let parsed: ProtocolMessage;
  try {
    parsed = parseMessage(open(message.message, ctx.keys.privateKey, message.nodePubKey).message);
  } catch (error) {
    ctx.log.warn('agbot message dropped', {
      msgId: message.msgId,
      from: message.nodeId,
      reason: (error as Error).message,
    });
    return true;
  }
  const agreement = await ctx.store.getAgreement(parsed.agreementId);
  if (!agreement) {
    if (graceOver(ctx, message)) {
      ctx.log.warn('agbot message for an unknown agreement dropped after its grace period', {
        msgId: message.msgId,
        from: message.nodeId,
      });
      return true;
    }
    ctx.log.debug('message for an unknown agreement left for now', { msgId: message.msgId });
    return false;
  }
  if (`${agreement.nodeOrg}/${agreement.nodeId}` !== message.nodeId) {
    ctx.log.warn('agbot message from another node dropped', {
      msgId: message.msgId,
      from: message.nodeId,
      agreement: agreement.agreementId,
    });
    return true;
  }
  const [org, id] = splitId(message.nodeId);
  const node = { org, id, publicKey: message.nodePubKey };
  const reply = (m: ProtocolMessage) => sendToNode(ctx, node, m);
  switch (parsed.type) {
    case MESSAGE_TYPES.reply:
      await handleReply(ctx, agreement, parsed, reply);
      return true;
    case MESSAGE_TYPES.cancel:
      if (!agreement.archived) {
        // A policy's node is looked at again next round (a pattern's is searched in full anyway);
        // marked before the archive, so that a crash between the two does not forget the node.
        if (!agreement.pattern) await ctx.store.revisit(agreement.policy, message.nodeId);
        // The node's reason is kept; the cancel is echoed back as upstream does (the node ignores it).
        await cancelAgreement(ctx, agreement, parsed.reason, { tellNode: false });
        await reply(buildCancel(agreement.agreementId, parsed.reason));
      }
      return true;
    case MESSAGE_TYPES.verify:
      await reply(buildVerifyReply(agreement.agreementId, !agreement.archived && !timedOut(ctx, agreement)));
      return true;
    case MESSAGE_TYPES.verifyReply:
      if (!agreement.archived && !parsed.exists)
        await cancelAgreement(ctx, agreement, REASON.agbotAgreementMissingOnNode);
      return true;
    case MESSAGE_TYPES.updateReply:
      if (!agreement.archived && parsed.updateType === UPDATE_TYPES.secret) {
        if (parsed.accepted) await saveDetails(ctx, agreement, { secretsAckedAt: ctx.now() });
        else ctx.log.warn('secret update rejected by the node', { agreement: agreement.agreementId });
      } else if (!agreement.archived && !parsed.accepted) {
        await cancelAgreement(ctx, agreement, REASON.agbotUpdateRejected);
      }
      return true;
    default:
      // Proposals, replyacks and node-bound updates are not the agbot's to act on.
      ctx.log.warn('agbot message of a node-bound type dropped', { msgId: message.msgId, type: parsed.type });
      return true;
  }
}

/** A positive reply → replyack true, "Finalized Agreement"; negative → 202. */
async function handleReply(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  reply: Reply,
  send: (m: ProtocolMessage) => Promise<void>,
): Promise<void> {
  const id = agreement.agreementId;
  if (agreement.archived || timedOut(ctx, agreement)) {
    // A late reply: the agreement is no longer valid (upstream's replyack false).
    if (reply.decision) await send(buildReplyAck(id, false));
    return;
  }
  if (agreement.state === AGBOT_STATES.finalized) {
    // The reply seen again: its first handling may have stopped (a crash) before the Exchange
    // row was finalized, and the message stays until handled, so the row is written again.
    await ctx.exchange.putAgreement(id, agreementRow(agreement, AGBOT_STATES.finalized));
    return;
  }
  if (!reply.decision) {
    await cancelAgreement(ctx, agreement, REASON.agbotNegativeReply);
    return;
  }
  // No "Producer agreed" row in between, as upstream's agbot writes (docs/compatibility.md): two
  // writes fewer per agreement. A crash before the finalized row is saved handles the reply again,
  // and the node ignores the second replyack as it would after a crash between the two states.
  await send(buildReplyAck(id, true));
  const finalized = await saveDetails(ctx, agreement, { repliedAt: ctx.now() }, AGBOT_STATES.finalized);
  if (!finalized) return;
  await ctx.exchange.putAgreement(id, agreementRow(finalized, AGBOT_STATES.finalized));
  ctx.log.info('agreement finalized', { agreement: id, node: reply.deviceId, policy: agreement.policy });
}

/** No reply within the protocol timeout (the timeouts step cancels it with 201). */
export function timedOut(ctx: RoundContext, agreement: AgbotAgreement): boolean {
  if (agreement.state !== AGBOT_STATES.formedProposal) return false;
  const timeoutS = agreement.details?.protocolTimeoutS ?? 0;
  return timeoutS > 0 && ctx.now() - agreement.createdAt >= timeoutS * 1000;
}

/** The agreement saved with `changes`; undefined when an overlapping round archived it meanwhile. */
async function saveDetails(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  changes: Partial<NonNullable<AgbotAgreement['details']>>,
  state = agreement.state,
): Promise<AgbotAgreement | undefined> {
  const details = { protocolTimeoutS: 0, secrets: [], ...agreement.details, ...changes };
  const next = { ...agreement, state, updatedAt: ctx.now(), details };
  const outcome = await ctx.store.saveAgreement(next);
  if (outcome === 'saved') return next;
  ctx.log.info('agreement archived meanwhile: not updated', { agreement: agreement.agreementId });
  return undefined;
}
