import type { AgbotAgreement, AgbotStore } from '#lib/agbot-store/contract';

/** Updates written at once: what one transaction of the stack's store takes. */
const BATCH = 100;

/**
 * Updates of live agreements that may wait for the end of a step (a sent proposal's mark, a
 * workload's state): kept, and written a hundred at a time (`updateLiveAgreements`: one
 * transaction in the stack's store) instead of one write each. What a crash loses was only a
 * record of something done: a proposal not yet marked looks cut short and is sent again with the
 * same id, which its node drops (resume-proposals.ts); a workload's state comes again from the
 * feed, whose cursor the round had not moved.
 */
export class PendingUpdates {
  private readonly pending = new Map<string, AgbotAgreement>();

  constructor(
    private readonly store: Pick<AgbotStore, 'updateLiveAgreements'>,
    /** Told of each update written (the round's list of live agreements follows). */
    private readonly onSaved: (agreement: AgbotAgreement) => void = () => undefined,
  ) {}

  /** Keeps `agreement` (a later update of the same one replaces it); writes the batch once full. */
  async add(agreement: AgbotAgreement): Promise<void> {
    this.pending.set(agreement.agreementId, agreement);
    if (this.pending.size >= BATCH) await this.flush();
  }

  /** Writes what is kept; an agreement archived meanwhile is left archived. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending.clear();
    if (batch.length === 0) return;
    const outcomes = await this.store.updateLiveAgreements(batch);
    batch.forEach((agreement, index) => {
      if (outcomes[index] === 'saved') this.onSaved(agreement);
    });
  }

  /** Runs `work`, then writes what it kept, even when it failed. */
  async around<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } finally {
      await this.flush();
    }
  }
}
