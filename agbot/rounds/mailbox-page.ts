/**
 * What the agbot does for a page of its mailbox at once rather than per message: the page's
 * agreements read together, and a wave's finalizations saved together (one BatchGetItem and one
 * transaction in the stack's store, for what was a read and a write per reply). A wave holds at
 * most one message of each sender, in the order they came, so what one message changes is seen by
 * the next of its sender (an agreement has one node).
 */
import type { AgbotAgreement, AgbotStore } from '#lib/agbot-store/contract';
import { AGBOT_STATES } from '#lib/protocol/agreement-states';
import { mapLimit, type RoundContext } from './context.ts';
import { agreementRow } from './propose.ts';
import type { AgbotMessage } from './wire.ts';

/** The messages in waves: the first message of each sender, then the second, and so on. */
export function waves<T extends { message: AgbotMessage }>(items: T[]): T[][] {
  const seen = new Map<string, number>();
  const result: T[][] = [];
  for (const item of items) {
    const position = seen.get(item.message.nodeId) ?? 0;
    seen.set(item.message.nodeId, position + 1);
    if (position === result.length) result.push([]);
    result[position]?.push(item);
  }
  return result;
}

/**
 * The page's agreements, read at once. Each is taken from that read once; asked again (a later
 * message of the same agreement, after the first may have changed it), it is read again.
 */
export class PageAgreements {
  private constructor(
    private readonly store: Pick<AgbotStore, 'getAgreement'>,
    private readonly read: Map<string, AgbotAgreement>,
    private readonly unused: Set<string>,
  ) {}

  static async read(
    store: Pick<AgbotStore, 'getAgreement' | 'getAgreements'>,
    agreementIds: string[],
  ): Promise<PageAgreements> {
    const ids = new Set(agreementIds);
    return new PageAgreements(store, ids.size > 0 ? await store.getAgreements([...ids]) : new Map(), ids);
  }

  async get(agreementId: string): Promise<AgbotAgreement | undefined> {
    if (this.unused.delete(agreementId)) return this.read.get(agreementId);
    return this.store.getAgreement(agreementId);
  }
}

interface Finalizing {
  agreement: AgbotAgreement;
  message: AgbotMessage;
}

/**
 * A wave's positive replies, their replyacks sent: saved "Finalized Agreement" together, then
 * each gets its Exchange row and its message is deleted. A crash before the save leaves the
 * messages, so the next round handles the replies again and sends the replyacks again, which the
 * nodes ignore (as after a crash between the replyack and the save of one reply).
 */
export class Finalizations {
  private readonly waiting: Finalizing[] = [];

  add(agreement: AgbotAgreement, message: AgbotMessage): void {
    this.waiting.push({ agreement, message });
  }

  /** Saves, writes the rows, deletes the messages; answers how many messages were handled. */
  async commit(ctx: RoundContext): Promise<number> {
    if (this.waiting.length === 0) return 0;
    const outcomes = await ctx.store.updateLiveAgreements(this.waiting.map((f) => f.agreement));
    await mapLimit([...this.waiting.keys()], ctx.settings.concurrency, async (index) => {
      const { agreement, message } = this.waiting[index] as Finalizing;
      const id = agreement.agreementId;
      if (outcomes[index] === 'saved') {
        await ctx.exchange.putAgreement(id, agreementRow(agreement, AGBOT_STATES.finalized));
        ctx.log.info('agreement finalized', {
          agreement: id,
          node: message.nodeId,
          policy: agreement.policy,
        });
      } else {
        ctx.log.info('agreement archived meanwhile: not updated', { agreement: id });
      }
      await ctx.exchange.deleteMessage(message.msgId);
    });
    return this.waiting.length;
  }
}
