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
import { Finalizations, PageAgreements, waves } from './mailbox-page.ts';
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

/** A message opened: its protocol message, or undefined when it did not open or parse. */
interface Opened {
  message: AgbotMessage;
  parsed: ProtocolMessage | undefined;
}

/** What became of a message: deleted, left for now, or deleted once its finalization is saved. */
type Outcome = 'done' | 'keep' | 'finalizing';

/**
 * One page, in waves (mailbox-page.ts): a sender's messages in order, different senders side by
 * side; the page's agreements read at once, a wave's finalizations saved at once.
 */
async function handlePage(ctx: RoundContext, messages: AgbotMessage[]): Promise<number> {
  const opened = messages.map((message) => openMessage(ctx, message));
  const agreements = await PageAgreements.read(
    ctx.store,
    opened.flatMap(({ parsed }) => (parsed ? [parsed.agreementId] : [])),
  );
  let handled = 0;
  for (const wave of waves(opened)) {
    const finalizations = new Finalizations();
    await mapLimit(wave, ctx.settings.concurrency, async (item) => {
      if ((await handleOne(ctx, item, agreements, finalizations)) !== 'done') return;
      await ctx.exchange.deleteMessage(item.message.msgId);
      handled += 1;
    });
    handled += await finalizations.commit(ctx);
  }
  return handled;
}

/** Whether an unusable message has waited out its grace period (one without a readable time has). */
function graceOver(ctx: RoundContext, message: AgbotMessage): boolean {
  const sent = Date.parse(message.timeSent ?? '');
  return Number.isNaN(sent) || ctx.now() - sent >= ctx.settings.unknownMessageGraceMs;
}

/** Opens and parses a message; one that does not open or parse is dropped with a warning. */
function openMessage(ctx: RoundContext, message: AgbotMessage): Opened {
  try {
    return {
      message,
      parsed: parseMessage(open(message.message, ctx.keys.privateKey, message.nodePubKey).message),
    };
  } catch (error) {
    ctx.log.warn('agbot message dropped', {
      msgId: message.msgId,
      from: message.nodeId,
      reason: (error as Error).message,
    });
    return { message, parsed: undefined };
  }
}

/** Handles one message; `keep` = leave it in the mailbox for now (an agreement not known yet). */
async function handleOne(
  ctx: RoundContext,
  { message, parsed }: Opened,
  agreements: PageAgreements,
  finalizations: Finalizations,
): Promise<Outcome> {
  if (!parsed) return 'done';
  const agreement = await agreements.get(parsed.agreementId);
  if (!agreement) {
    if (graceOver(ctx, message)) {
      ctx.log.warn('agbot message for an unknown agreement dropped after its grace period', {
        msgId: message.msgId,
        from: message.nodeId,
      });
      return 'done';
    }
    ctx.log.debug('message for an unknown agreement left for now', { msgId: message.msgId });
    return 'keep';
  }
  if (`${agreement.nodeOrg}/${agreement.nodeId}` !== message.nodeId) {
    ctx.log.warn('agbot message from another node dropped', {
      msgId: message.msgId,
      from: message.nodeId,
      agreement: agreement.agreementId,
    });
    return 'done';
  }
  const [org, id] = splitId(message.nodeId);
  const node = { org, id, publicKey: message.nodePubKey };
  const reply = (m: ProtocolMessage) => sendToNode(ctx, node, m);
  switch (parsed.type) {
    case MESSAGE_TYPES.reply:
      if (!(await handleReply(ctx, agreement, parsed, reply))) return 'done';
      finalizations.add(finalized(ctx, agreement), message);
      return 'finalizing';
    case MESSAGE_TYPES.cancel:
      if (!agreement.archived) {
        // A policy's node is looked at again next round (a pattern's is searched in full anyway);
        // marked before the archive, so that a crash between the two does not forget the node.
        if (!agreement.pattern) await ctx.store.revisit(agreement.policy, message.nodeId);
        // The node's reason is kept; the cancel is echoed back as upstream does (the node ignores it).
        await cancelAgreement(ctx, agreement, parsed.reason, { tellNode: false });
        await reply(buildCancel(agreement.agreementId, parsed.reason));
      }
      return 'done';
    case MESSAGE_TYPES.verify:
      await reply(buildVerifyReply(agreement.agreementId, !agreement.archived && !timedOut(ctx, agreement)));
      return 'done';
    case MESSAGE_TYPES.verifyReply:
      if (!agreement.archived && !parsed.exists)
        await cancelAgreement(ctx, agreement, REASON.agbotAgreementMissingOnNode);
      return 'done';
    case MESSAGE_TYPES.updateReply:
      if (!agreement.archived && parsed.updateType === UPDATE_TYPES.secret) {
        if (parsed.accepted) await saveDetails(ctx, agreement, { secretsAckedAt: ctx.now() });
        else ctx.log.warn('secret update rejected by the node', { agreement: agreement.agreementId });
      } else if (!agreement.archived && !parsed.accepted) {
        await cancelAgreement(ctx, agreement, REASON.agbotUpdateRejected);
      }
      return 'done';
    default:
      // Proposals, replyacks and node-bound updates are not the agbot's to act on.
      ctx.log.warn('agbot message of a node-bound type dropped', { msgId: message.msgId, type: parsed.type });
      return 'done';
  }
}

/**
 * A positive reply → replyack true, and true: the agreement is to be saved "Finalized Agreement"
 * with its wave (mailbox-page.ts); negative → 202. False when nothing is left to save.
 */
async function handleReply(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  reply: Reply,
  send: (m: ProtocolMessage) => Promise<void>,
): Promise<boolean> {
  const id = agreement.agreementId;
  if (agreement.archived || timedOut(ctx, agreement)) {
    // A late reply: the agreement is no longer valid (upstream's replyack false).
    if (reply.decision) await send(buildReplyAck(id, false));
    return false;
  }
  if (agreement.state === AGBOT_STATES.finalized) {
    // The reply seen again: its first handling may have stopped (a crash) before the Exchange
    // row was finalized, and the message stays until handled, so the row is written again.
    await ctx.exchange.putAgreement(id, agreementRow(agreement, AGBOT_STATES.finalized));
    return false;
  }
  if (!reply.decision) {
    await cancelAgreement(ctx, agreement, REASON.agbotNegativeReply);
    return false;
  }
  // No "Producer agreed" row in between, as upstream's agbot writes (docs/compatibility.md): two
  // writes fewer per agreement. A crash before the finalized row is saved handles the reply again,
  // and the node ignores the second replyack as it would after a crash between the two states.
  await send(buildReplyAck(id, true));
  return true;
}

/** No reply within the protocol timeout (the timeouts step cancels it with 201). */
export function timedOut(ctx: RoundContext, agreement: AgbotAgreement): boolean {
  if (agreement.state !== AGBOT_STATES.formedProposal) return false;
  const timeoutS = agreement.details?.protocolTimeoutS ?? 0;
  return timeoutS > 0 && ctx.now() - agreement.createdAt >= timeoutS * 1000;
}

/** The agreement with `changes` to its details (and its state), as it is to be saved. */
const withDetails = (
  ctx: RoundContext,
  agreement: AgbotAgreement,
  changes: Partial<NonNullable<AgbotAgreement['details']>>,
  state = agreement.state,
): AgbotAgreement => ({
  ...agreement,
  state,
  updatedAt: ctx.now(),
  details: { protocolTimeoutS: 0, secrets: [], ...agreement.details, ...changes },
});

/** A replied agreement, finalized. */
const finalized = (ctx: RoundContext, agreement: AgbotAgreement): AgbotAgreement =>
  withDetails(ctx, agreement, { repliedAt: ctx.now() }, AGBOT_STATES.finalized);

/** The agreement saved with `changes`; undefined when an overlapping round archived it meanwhile. */
async function saveDetails(
  ctx: RoundContext,
  agreement: AgbotAgreement,
  changes: Partial<NonNullable<AgbotAgreement['details']>>,
): Promise<AgbotAgreement | undefined> {
  const next = withDetails(ctx, agreement, changes);
  const outcome = await ctx.store.saveAgreement(next);
  if (outcome === 'saved') return next;
  ctx.log.info('agreement archived meanwhile: not updated', { agreement: agreement.agreementId });
  return undefined;
}
